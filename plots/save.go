package plots

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/parpredict/parpredict/report"
)

// Default image size.
const (
	Width  = 16 * vg.Centimeter
	Height = 10 * vg.Centimeter
)

// Write renders p at the default size in format "png" or "svg".
func Write(w io.Writer, p *plot.Plot, format string) error {
	if format != "png" && format != "svg" {
		return fmt.Errorf("plots: format %q, want png or svg", format)
	}
	wt, err := p.WriterTo(Width, Height, format)
	if err != nil {
		return fmt.Errorf("plots: rendering %s: %w", format, err)
	}
	if _, err := wt.WriteTo(w); err != nil {
		return fmt.Errorf("plots: writing %s: %w", format, err)
	}
	return nil
}

// Save writes p to path, PNG or SVG by its extension, atomically (a
// temporary file in the same directory renamed over path).
func Save(p *plot.Plot, path string) error {
	if err := CheckFormat(path); err != nil {
		return err
	}
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	return report.WriteFile(path, func(w io.Writer) error { return Write(w, p, format) })
}

// CheckFormat reports whether path's extension names a format Save
// writes (.png or .svg).
func CheckFormat(path string) error {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if format != "png" && format != "svg" {
		return fmt.Errorf("plots: %s: extension %q, want .png or .svg", path, filepath.Ext(path))
	}
	return nil
}

// title joins the program, machine and arguments into a plot title.
func title(what, program, machine string, args []string) string {
	t := what
	if program != "" {
		t += ": " + program
	}
	if len(args) > 0 {
		t += " " + strings.Join(args, " ")
	}
	if machine != "" {
		t += " on " + machine
	}
	return t
}
