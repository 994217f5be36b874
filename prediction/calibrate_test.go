package prediction

import (
	"math"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/profiler"
)

func TestPlainScale(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    profiler.Totals
		want float64
	}{
		{"not measured", profiler.Totals{AccountedNs: 100, MPINs: 10}, 1},
		{"a few per cent slower", profiler.Totals{AccountedNs: 100, MPINs: 10, PlainBodyNs: 105}, 95.0 / 90},
		// sparse: the program without probes 12 % and 27 % faster, nearly
		// all of it in the loop that builds its matrix.
		{"a little faster", profiler.Totals{AccountedNs: 110, MPINs: 10, PlainBodyNs: 98.3}, 1},
		{"much faster", profiler.Totals{AccountedNs: 110, MPINs: 10, PlainBodyNs: 83}, 1},
		// pingpong: the compute a ping-pong leaves between its calls is
		// the difference of two noisy times of about its whole run.
		{"mostly MPI", profiler.Totals{AccountedNs: 29.6, MPINs: 24.1, PlainBodyNs: 24.5}, 1},
		{"half MPI", profiler.Totals{AccountedNs: 100, MPINs: 50, PlainBodyNs: 110}, 1.2},
		// matmul's slow builds: 58 ms of own times, 90 ms in the plain
		// binary, MPI the same in both.
		{"slower without probes", profiler.Totals{AccountedNs: 65, MPINs: 7, PlainBodyNs: 97}, 90.0 / 58},
		{"plain less than MPI", profiler.Totals{AccountedNs: 100, MPINs: 50, PlainBodyNs: 40}, 1},
	} {
		if got := plainScale(tc.t, 0); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %g, want %g", tc.name, got, tc.want)
		}
	}
}

// Only the own time inside the ranks' bodies is compared with the plain
// runs' body time: main's own time around mpi.Main is in neither.
func TestPlainScaleComparesBodies(t *testing.T) {
	tot := profiler.Totals{AccountedNs: 1900, MPINs: 15, PlainBodyNs: 1611}
	if got := plainScale(tot, 1500); math.Abs(got-1596.0/1500) > 1e-12 {
		t.Errorf("bodies' own 1500 ns against 1596 ns of plain compute: scale %g, want %g", got, 1596.0/1500)
	}
	if got := plainScale(tot, 0); got != 1 {
		t.Errorf("without the bodies' own time: scale %g, want 1 (1596 ns against 1885 ns: faster, not scaled)", got)
	}
}

// The notes say when compute is scaled to the program without probes,
// and when that program ran much faster than profiled (kept, but named:
// a profile made while the machine was busy looks like this).
func TestCalibrationNotes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		t      profiler.Totals
		scale  float64
		phrase string // in the one note expected; "" for none
	}{
		{"as profiled", profiler.Totals{AccountedNs: 100e6, MPINs: 10e6, PlainBodyNs: 102e6}, 92.0 / 90, ""},
		{"slower without probes", profiler.Totals{AccountedNs: 100e6, MPINs: 10e6, PlainBodyNs: 118e6}, 108.0 / 90, "compute scaled by 1.2"},
		{"a little faster", profiler.Totals{AccountedNs: 100e6, MPINs: 10e6, PlainBodyNs: 95e6}, 1, ""},
		// scan (a prefix sum) on the 2-core VM: its instrumented loop
		// laid out slower, 362 ms accounted for 299 ms without probes.
		{"faster", profiler.Totals{AccountedNs: 362e6, MPINs: 1e6, PlainBodyNs: 299e6}, 1, "0.299 s, 17% faster than the profile's own times"},
		// heat on the noisy AMD host: 526 ms accounted, 358 ms without probes.
		{"much faster", profiler.Totals{AccountedNs: 526e6, MPINs: 3.2e6, PlainBodyNs: 358e6}, 1, "0.358 s, 32% faster than the profile's own times"},
	} {
		prof := &profiler.Profile{Totals: tc.t}
		o := &Oracle{prof: prof, zones: &zones{prof: prof}, notes: map[string]bool{}}
		o.calibrateToPlain()
		if math.Abs(o.calib-tc.scale) > 1e-12 {
			t.Errorf("%s: scale %g, want %g", tc.name, o.calib, tc.scale)
		}
		notes := o.Notes()
		switch {
		case tc.phrase == "" && len(notes) > 0:
			t.Errorf("%s: notes %q, want none", tc.name, notes)
		case tc.phrase != "" && (len(notes) != 1 || !strings.Contains(notes[0], tc.phrase)):
			t.Errorf("%s: notes %q, want one with %q", tc.name, notes, tc.phrase)
		}
	}
}
