package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes the timeline as JSON (the fields of docs/report.md), so
// a predicted timeline can be kept and analysed later.
func (t *Timeline) WriteJSON(w io.Writer) error {
	if err := t.Check(); err != nil {
		return err
	}
	return writeJSON(w, t)
}

// ReadTimeline reads a timeline written by WriteJSON and checks it; name
// labels errors (a file name).
func ReadTimeline(r io.Reader, name string) (*Timeline, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var t Timeline
	if err := dec.Decode(&t); err != nil {
		if se, ok := err.(*json.SyntaxError); ok {
			return nil, fmt.Errorf("report: %s: offset %d: %w", name, se.Offset, err)
		}
		return nil, fmt.Errorf("report: %s: %w", name, err)
	}
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, name)
	}
	return &t, nil
}
