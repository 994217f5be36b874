package interpreter

import (
	"strconv"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// A nest whose answers differ from rank to rank (here its time asks for
// the rank) has more distinct answers than the shared memos hold; each
// rank keeps its own, so that a rank re-entering the nest with the
// answers of its last entry is not costed again: Time runs once per rank,
// not once per entry.
func TestNestMemosPerRank(t *testing.T) {
	const p, steps = 8, 10
	prog, pkg, o := ringReduction(t, func(v ssa.Value) []ssa.Value { return []ssa.Value{v} }, 1e-6)
	calls := 0
	for _, red := range o.reduce {
		time := red.Time
		red.Time = func(bind Binder) (float64, error) {
			calls++
			bind.Rank(nil)
			return time(bind)
		}
	}
	run, _ := simulateWith(t, prog, pkg, o, p, "-n", "1000", "-steps", strconv.Itoa(steps))
	if calls > p {
		t.Errorf("the nest's time was computed %d times for %d ranks entering it %d times each; want once per rank", calls, p, steps)
	}
	near(t, "compute", run.Ranks[p-1].Compute, steps*1000*1e-6)
}
