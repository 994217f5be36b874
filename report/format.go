package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"
)

// Fixed float formats keep outputs byte-identical for identical inputs.

// secs formats a time in seconds with 6 significant digits (tables).
func secs(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// fixed formats a ratio with 3 decimals (tables).
func fixed(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

// full formats a float at full precision, shortest form (CSV).
func full(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// table writes tab-separated rows aligned into columns.
func table(w io.Writer, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, row := range rows {
		for _, cell := range row {
			if _, err := io.WriteString(tw, cell+"\t"); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(tw, "\n"); err != nil {
			return err
		}
	}
	return tw.Flush()
}

// writeJSON writes v as indented JSON followed by a newline. encoding/json
// sorts map keys and formats floats in their shortest form, so the bytes
// depend only on v.
func writeJSON(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("report: encoding JSON: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// WriteFile writes what fn produces to path atomically: into a temporary file
// in the same directory, renamed over path once complete, so a reader never
// sees half a file.
func WriteFile(path string, fn func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := fn(&buf); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("report: writing %s: %w", path, err)
	}
	_, werr := f.Write(buf.Bytes())
	if werr == nil {
		// CreateTemp makes the file private; outputs are ordinary files.
		werr = f.Chmod(0o644)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("report: writing %s: %w", path, werr)
	}
	return nil
}
