package prediction

import (
	"math"
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
		{"within the tolerance", profiler.Totals{AccountedNs: 100, MPINs: 10, PlainBodyNs: 105}, 1},
		{"at the tolerance", profiler.Totals{AccountedNs: 110, MPINs: 10, PlainBodyNs: 125}, 1},
		// matmul's slow builds: 58 ms of own times, 90 ms in the plain
		// binary, MPI the same in both.
		{"slower without probes", profiler.Totals{AccountedNs: 65, MPINs: 7, PlainBodyNs: 97}, 90.0 / 58},
		{"faster without probes", profiler.Totals{AccountedNs: 110, MPINs: 10, PlainBodyNs: 80}, 0.7},
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
	if got := plainScale(tot, 1500); got != 1 {
		t.Errorf("bodies' own 1500 ns against 1596 ns of plain compute: scale %g, want 1 (within the tolerance)", got)
	}
	if got := plainScale(tot, 0); math.Abs(got-1596.0/1885) > 1e-12 {
		t.Errorf("without the bodies' own time: scale %g, want %g", got, 1596.0/1885)
	}
}
