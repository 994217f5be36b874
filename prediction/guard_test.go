package prediction

import (
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
)

// TestGuardedWorkDivided: items dealt out by a test on the rank in a loop
// over all of them (testdata/guarded, four forms) cost each rank its share:
// at 4 ranks, a quarter of one rank's time. The nest had charged every
// rank all the items, since the profiled run (one rank) did them all.
func TestGuardedWorkDivided(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	for _, form := range []string{"continue", "if", "owner", "many"} {
		t.Run(form, func(t *testing.T) {
			args := []string{"-form", form}
			mp, oracle, m := prepareTestdata(t, "guarded", args)
			var times [2]float64
			for i, p := range []int{1, 4} {
				// One rank per node: the node's slowdown stays out.
				run, _, err := simulate(mp, oracle, m, p, p, 1, commmodel.Block, args, interpreter.Options{})
				if err != nil {
					t.Fatalf("P = %d: %v", p, err)
				}
				iv, ok := run.Interval(1)
				if !ok {
					t.Fatalf("P = %d: no interval 1", p)
				}
				times[i] = iv
			}
			if r := times[1] / times[0]; r < 0.2 || r > 0.32 {
				t.Errorf("P = 1: %.3g s, P = 4: %.3g s (ratio %.2f), want about 0.25", times[0], times[1], r)
			}
		})
	}
}
