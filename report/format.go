package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/parpredict/parpredict/internal/atomicfile"
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
	if err := atomicfile.WriteFunc(path, fn); err != nil {
		return fmt.Errorf("report: writing %s: %w", path, err)
	}
	return nil
}
