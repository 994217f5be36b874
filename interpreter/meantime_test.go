package interpreter

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// A reduced nest whose count needs a value the rank does not know is
// charged its profiled time per entry (MeanTime), with an assumption,
// instead of being run on guessed branches; without a MeanTime it is run.
func TestReducedNestMeanTime(t *testing.T) {
	const mean = 3e-3
	for _, meanTime := range []float64{mean, 0} {
		prog, pkg, o := ringReduction(t, func(v ssa.Value) []ssa.Value { return []ssa.Value{v} }, 1e-6)
		work := pkg.Func("work")
		for _, red := range o.reduce {
			red.Needs = append(red.Needs, work.Params[0])
			red.MeanTime = meanTime
			red.Time = func(bind Binder) (float64, error) {
				// A slice is no pointer: the path does not follow, and
				// the binder says it does not know.
				if _, ok := bind.Memory(work.Params[0], []MemRead{{Field: FieldDeref}}, false); !ok {
					return 0, errors.New("trip count unknown")
				}
				return 1, nil
			}
		}
		run, sp := simulateWith(t, prog, pkg, o, 2, "-n", "1000", "-steps", "4")
		var costed, executed bool
		for _, a := range sp.Assumptions() {
			costed = costed || strings.Contains(a.What, "costed at its profiled time per entry")
			executed = executed || strings.Contains(a.What, "executed instead")
		}
		if meanTime > 0 {
			if !costed || executed {
				t.Errorf("MeanTime %g: assumptions %v; want the nest costed at its mean", meanTime, sp.Assumptions())
			}
			near(t, "compute", run.Ranks[0].Compute, 4*mean)
		} else if !executed || costed {
			t.Errorf("no MeanTime: assumptions %v; want the nest executed", sp.Assumptions())
		}
	}
}
