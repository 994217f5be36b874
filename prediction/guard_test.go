package prediction

import (
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/model"
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
			wantQuarterAtFour(t, mp, oracle, m, args)
		})
	}
}

// wantQuarterAtFour checks that interval 1 takes about a quarter of its
// one-rank time at P = 4, one rank per node: each rank's share of the
// work.
func wantQuarterAtFour(t *testing.T, mp *model.Program, oracle *Oracle, m *commmodel.Machine, args []string) {
	t.Helper()
	t1 := intervalAlone(t, mp, oracle, m, 1, args)
	t4 := intervalAlone(t, mp, oracle, m, 4, args)
	if r := t4 / t1; r < 0.2 || r > 0.32 {
		t.Errorf("%v: P = 1: %.3g s, P = 4: %.3g s (ratio %.2f), want about 0.25", args, t1, t4, r)
	}
}

// intervalAlone is intervalOn with one rank per node, so that the
// node's compute slowdown stays out of the times compared.
func intervalAlone(t *testing.T, mp *model.Program, oracle *Oracle, m *commmodel.Machine, p int, args []string) float64 {
	t.Helper()
	run, _, err := simulate(mp, oracle, m, p, p, 1, commmodel.Block, args, interpreter.Options{})
	if err != nil {
		t.Fatalf("P = %d: %v", p, err)
	}
	iv, ok := run.Interval(1)
	if !ok {
		t.Fatalf("P = %d: no interval 1", p)
	}
	return iv
}
