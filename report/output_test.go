package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	sr, err := Speedup(amdahlSweep(true), SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lr, err := Losses(handTimeline(), LossOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		r      any
		format string
		prefix string // start of the output, or of the error
	}{
		{"text", sr, "text", "program: ./examples/heat"},
		{"csv", sr, "csv", "p,nodes,ppn,time_s"},
		{"json", sr, "json", "{\n  \"program\""},
		{"loss json", lr, "json", "{\n  \"program\": \"hand\""},
		{"loss csv", lr, "csv", "report: *report.LossReport has no csv output"},
		{"bad format", sr, "yaml", "report: unknown format \"yaml\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			f, err := ParseFormat(tc.format)
			if err == nil {
				err = Write(&b, tc.r, f)
			}
			got := b.String()
			if err != nil {
				got = err.Error()
			}
			if !strings.HasPrefix(got, tc.prefix) {
				t.Errorf("got %.60q, want it to start with %q", got, tc.prefix)
			}
		})
	}
}
