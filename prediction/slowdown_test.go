package prediction

import (
	"math"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/profiler"
)

// The program's own slowdown from the profile's --ppn reruns wins over the
// machine's table, relative to its one-rank run; the table carries it on
// beyond the largest rank count profiled and stands in without it.
func TestComputeFactor(t *testing.T) {
	m := &commmodel.Machine{ComputeSlowdown: []commmodel.SlowdownRow{{PPN: 1, Factor: 1}, {PPN: 2, Factor: 1.5}, {PPN: 4, Factor: 3}}}
	with := &Oracle{prof: &profiler.Profile{Contention: &profiler.Contention{PPN: []int{2, 1}, Total: []float64{1.1, 1.0}}}}
	without := &Oracle{prof: &profiler.Profile{}}
	noBase := &Oracle{prof: &profiler.Profile{Contention: &profiler.Contention{PPN: []int{2, 4}, Total: []float64{1, 1.2}}}}
	for _, tc := range []struct {
		name string
		o    *Oracle
		per  int
		want float64
	}{
		{"profiled, one rank", with, 1, 1},
		{"profiled, two ranks", with, 2, 1.1},
		{"beyond the profile: the table's ratio", with, 4, 1.1 * 3 / 1.5},
		{"no profile data", without, 2, 1.5},
		{"profile without a one-rank base", noBase, 2, 1.5},
	} {
		if got := tc.o.computeFactor(m, tc.per); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: computeFactor(%d) = %g, want %g", tc.name, tc.per, got, tc.want)
		}
	}
}
