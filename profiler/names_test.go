package profiler

import (
	"sort"
	"testing"
)

// TestSyntaxNamesMatchModel: the syntax fallback names functions as the
// model does, so that a region's ID is the same whichever made it.
func TestSyntaxNamesMatchModel(t *testing.T) {
	for _, dir := range []string{"./profiler/testdata/tricky", "./profiler/testdata/dynkernels"} {
		prog, err := LoadProgram("..", dir)
		if err != nil {
			t.Fatal(err)
		}
		mts, err := ModelTargets(prog)
		if err != nil {
			t.Fatal(err)
		}
		model := map[string]bool{}
		for _, ts := range mts {
			model[ts.Func] = true
		}
		var missing []string
		for _, ts := range ASTTargets(prog) {
			if !model[ts.Func] {
				missing = append(missing, ts.Func)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s: functions named by the syntax but not by the model: %q", dir, missing)
		}
	}
}
