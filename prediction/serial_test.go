package prediction

import (
	"math"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/report"
)

// The serial time is the larger of the two estimates that the predicted
// speedups do not contradict: a farm (a master and workers; one worker
// at P = 2) is not 96 % serial, a master's serial check beside the
// workers is not 0 % serial.
func TestChooseSerial(t *testing.T) {
	pts := func(serial float64, times ...float64) []report.Point {
		var out []report.Point
		for i, tm := range times {
			out = append(out, report.Point{Config: report.Config{P: 1 << (2 * i), Nodes: 1, PPN: 1 << (2 * i)}, Time: tm})
		}
		out[0].Serial = &serial
		return out
	}
	for _, tc := range []struct {
		name       string
		points     []report.Point
		dist, want float64
		noted      bool
	}{
		// S(4) = 2.86, S(16) = 9.3: f = 0.96 bounds them at 1.04.
		{"farm", pts(0.96, 1, 0.35, 0.108), 0.001, 0.001, true},
		// S(16) = 1.82 is below 1/(0.5 + 0.5/16) = 1.88.
		{"serial check", pts(0, 1, 0.67, 0.55), 0.5, 0.5, true},
		{"both agree", pts(0.02, 1, 0.27, 0.09), 0.01, 0.02, false},
		// Neither holds (work dealt by messages): none, the report
		// fits f.
		{"neither", pts(0.96, 1, 0.35, 0.108), 0.97, -1, true},
	} {
		note := chooseSerial(tc.points, tc.dist)
		switch got := tc.points[0].Serial; {
		case tc.want < 0 && got != nil:
			t.Errorf("%s: serial %v, want none", tc.name, *got)
		case tc.want >= 0 && (got == nil || math.Abs(*got-tc.want) > 1e-12):
			t.Errorf("%s: serial %v, want %v", tc.name, got, tc.want)
		}
		if (note != "") != tc.noted || tc.noted && !strings.Contains(note, "serial fraction f") && !strings.Contains(note, "serial fraction") {
			t.Errorf("%s: note %q", tc.name, note)
		}
	}
}
