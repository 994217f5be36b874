package report

import (
	"fmt"
	"io"
)

// Format is an output format of the reports.
type Format string

// The formats every report writes; LossReport has no CSV form.
const (
	Text Format = "text"
	CSV  Format = "csv"
	JSON Format = "json"
)

// ParseFormat checks a format name given by a user (a --format flag).
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case Text, CSV, JSON:
		return f, nil
	}
	return "", fmt.Errorf("report: unknown format %q, want text, csv or json", s)
}

// Write writes r (a *SpeedupReport, *ValidationReport or *LossReport) in
// format f, so a command needs one call whatever the user picked.
func Write(w io.Writer, r any, f Format) error {
	type texter interface{ WriteText(io.Writer) error }
	type csver interface{ WriteCSV(io.Writer) error }
	type jsoner interface{ WriteJSON(io.Writer) error }
	switch f {
	case Text:
		if t, ok := r.(texter); ok {
			return t.WriteText(w)
		}
	case CSV:
		if c, ok := r.(csver); ok {
			return c.WriteCSV(w)
		}
	case JSON:
		if j, ok := r.(jsoner); ok {
			return j.WriteJSON(w)
		}
	default:
		return fmt.Errorf("report: unknown format %q, want text, csv or json", f)
	}
	return fmt.Errorf("report: %T has no %s output", r, f)
}
