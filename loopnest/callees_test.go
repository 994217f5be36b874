package loopnest

import (
	"testing"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"golang.org/x/tools/go/ssa"
)

// bindParams binds the parameters of fn by name.
func bindParams(fn *ssa.Function, vals map[string]int64) symbolic.Values {
	env := symbolic.Values{}
	for _, p := range fn.Params {
		if v, ok := vals[p.Name()]; ok {
			env[p] = v
		}
	}
	return env
}

func TestCalleeLoopsCounted(t *testing.T) {
	p := load(t, "testdata/callees")
	marks := markers(t, "testdata/callees/callees.go")
	for _, tc := range []struct {
		mark string
		vals map[string]int64
		want []int64 // iterations of the nest root, then of each callee copy in WalkAll order
		mem  memEnv  // memory the counts read, when they do
	}{
		{"rows", map[string]int64{"rows": 4, "n": 5}, []int64{4, 20}, nil},
		{"tri", map[string]int64{"n": 6}, []int64{6, 15}, nil},
		{"nested", map[string]int64{"n": 4, "m": 7}, []int64{4, 12, 84}, nil},
		{"twice", map[string]int64{"n": 4, "m": 7}, []int64{4, 28}, nil},
		{"hooked", map[string]int64{"n": 4, "m": 7}, []int64{4}, nil},
		{"search", map[string]int64{"rows": 4, "n": 5}, []int64{4}, nil},
		// k.N at field 0 of what k points to.
		{"fields", map[string]int64{"rows": 4}, []int64{4, 20}, memEnv{"k[{0 0}]": 5}},
		// Through wrappers without loops: the kernel's count read
		// through the wrapper's receiver, or restated from its argument.
		{"wrapped", map[string]int64{"rows": 4}, []int64{4, 20}, memEnv{"k[{0 0}]": 5}},
		{"bywrapper", map[string]int64{"n": 4, "m": 7}, []int64{4, 56}, nil},
	} {
		t.Run(tc.mark, func(t *testing.T) {
			l := loopAt(t, p, marks[tc.mark])
			if l.Reduction.Nest != l {
				t.Fatalf("loop %s is not the root of a reduced nest: %v", l.ID, l.Reduction.Reasons)
			}
			totals, err := Iterations(l, symbolic.Chain{bindParams(l.Func, tc.vals), tc.mem})
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			l.WalkAll(func(x *Loop) { got = append(got, totals[x]) })
			if len(got) != len(tc.want) {
				t.Fatalf("iterations %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("iterations %v, want %v", got, tc.want)
				}
			}
			own, err := IterationsOwn(l, symbolic.Chain{bindParams(l.Func, tc.vals), tc.mem})
			if err != nil {
				t.Fatal(err)
			}
			if len(own) != 1 || own[l] != tc.want[0] {
				t.Errorf("IterationsOwn = %v, want only the root's %d", own, tc.want[0])
			}
			// The evaluator must keep what the copies count over.
			for _, v := range l.BoundValues() {
				if v.Parent() != l.Func {
					t.Errorf("BoundValues holds %s of %s", v.Name(), v.Parent())
				}
			}
		})
	}
}

func TestCalleeLoopsReported(t *testing.T) {
	p := load(t, "testdata/callees")
	marks := markers(t, "testdata/callees/callees.go")
	lr := loopReport(p.Prog.Fset, loopAt(t, p, marks["rows"]))
	if len(lr.CalleeLoops) != 1 || lr.CalleeLoops[0].ID != "callees.rowSum:loop@callees.go:+2:2" || lr.CalleeLoops[0].Trip != "(i+1)*n-i*n" {
		t.Errorf("callee loops of Rows: %+v", lr.CalleeLoops)
	}
}
