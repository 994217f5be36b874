package loopnest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"golang.org/x/tools/go/ssa"
)

// memEnv answers memory reads by the base's name and the steps, printed.
type memEnv map[string]int64

func (m memEnv) Lookup(*symbolic.Sym) (int64, bool) { return 0, false }

func (m memEnv) LookupMem(base ssa.Value, steps []symbolic.ResolvedStep, length bool) (int64, bool) {
	key := base.Name() + fmt.Sprint(steps)
	if length {
		key = "len " + key
	}
	v, ok := m[key]
	return v, ok
}

func TestMemoryCounts(t *testing.T) {
	p := load(t, "testdata/memory")
	marks := markers(t, "testdata/memory/memory.go")
	for _, tc := range []struct {
		mark   string
		env    memEnv
		params map[string]int64
		want   []int64 // iterations of the loop, its inner loops and its callee copies, in WalkAll order
	}{
		// Rows at field 0, Cols at field 1.
		{"fields", memEnv{"g[{0 0}]": 6, "g[{1 0}]": 10}, nil, []int64{4, 32}},
		// Row i has length 3+i.
		{"rows", memEnv{"len a[]": 3, "len a[{-2 0}]": 3, "len a[{-2 1}]": 4, "len a[{-2 2}]": 5}, nil, []int64{3, 12}},
		{"captured", memEnv{"limit[{-1 0}]": 7}, nil, []int64{7}},
		// A method that only computes an index does not store.
		{"method-index", memEnv{"b[{0 0}]": 3, "b[{1 0}]": 5}, nil, []int64{3, 15}},
		// Field 2 is A; rows of length 2 and 5, twice over. A kernel
		// that writes float64s leaves the rows' lengths as they were.
		{"scale-rows", memEnv{"len g[{2 0}]": 2, "len g[{2 0} {-2 0}]": 2, "len g[{2 0} {-2 1}]": 5},
			map[string]int64{"reps": 2}, []int64{2, 4, 14}},
		// W at field 0, N at field 1: a range over r.Row(k) counts the
		// accessor's bounds, (k+1)*r.W - k*r.W.
		{"accessor-rows", memEnv{"r[{0 0}]": 4, "r[{1 0}]": 3}, nil, []int64{3, 12}},
	} {
		t.Run(tc.mark, func(t *testing.T) {
			l := loopAt(t, p, marks[tc.mark])
			if l.Reduction.Nest != l {
				t.Fatalf("loop %s is not the root of a reduced nest: %v", l.ID, l.Reduction.Reasons)
			}
			env := symbolic.Chain{tc.env, bindParams(l.Func, tc.params)}
			if tc.mark == "rows" {
				// len(a) itself is an SSA value the evaluator binds.
				env = symbolic.Chain{lenOf{3}, tc.env}
			}
			totals, err := Iterations(l, env)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			l.WalkAll(func(x *Loop) { got = append(got, totals[x]) })
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("iterations %v, want %v", got, tc.want)
			}
		})
	}
}

// A loop whose callee may write what its count reads has no count read
// at entry: reset writes a whole Grid (its rows field among them), and
// Regrow's loop stores new rows before the kernel counts over one.
// Deal appends to the elements of b.Out, slices of the type of b.Data,
// whose length bounds the loop: the count stays len(b.Data) read at the
// nest's entry (a slice's element is no struct's field); it was data,
// and repro-bucketappend's count the profile's at every P.
func TestFieldCountKeptWhenElementsStored(t *testing.T) {
	p := load(t, "testdata/memory")
	marks := markers(t, "testdata/memory/memory.go")
	l := loopAt(t, p, marks["buckets"])
	if l.Trip == nil || l.DataDependent {
		t.Fatalf("Deal's loop: trip %v, data-dependent %v; want len(b.Data)/4 read at entry", l.Trip, l.DataDependent)
	}
	// Data at field 0: 40 elements, dealt 4 at a time.
	if n, err := l.Trip.Eval(memEnv{"len b[{0 0}]": 40}); err != nil || n != 10 {
		t.Errorf("Deal's loop counts %d (%v), want 10", n, err)
	}
}

func TestMemoryCountsWrittenByCallees(t *testing.T) {
	p := load(t, "testdata/memory")
	marks := markers(t, "testdata/memory/memory.go")
	if l := loopAt(t, p, marks["reset"]); l.Trip != nil && !l.DataDependent {
		t.Errorf("the loop calling reset counts %s at entry", l.Trip)
	}
	l := loopAt(t, p, marks["regrow"])
	var copies []string
	l.WalkAll(func(x *Loop) {
		if x.Inlined != nil {
			copies = append(copies, x.ID+" "+fmt.Sprint(x.Trip))
		}
	})
	if len(copies) > 0 {
		t.Errorf("Regrow counts its kernel over rows it rewrites: %v", copies)
	}
}

// lenOf binds every Len symbol with an SSA value to n.
type lenOf struct{ n int64 }

func (e lenOf) Lookup(s *symbolic.Sym) (int64, bool) {
	if s.Kind == symbolic.Len && s.Value != nil {
		return e.n, true
	}
	return 0, false
}

func TestCheckedStep(t *testing.T) {
	p := load(t, "testdata/memory")
	l := loopAt(t, p, markers(t, "testdata/memory/memory.go")["strided"])
	if l.Reduction.Nest != l {
		t.Fatalf("the strided loop is not reduced: %v", l.Reduction.Reasons)
	}
	bind := func(stride int64) symbolic.Values {
		env := symbolic.Values{}
		for _, prm := range l.Func.Params {
			env[prm] = map[string]int64{"lo": 3, "hi": 20, "stride": stride}[prm.Name()]
		}
		return env
	}
	totals, err := Iterations(l, bind(4))
	if err != nil || totals[l] != 5 { // 3, 7, 11, 15, 19
		t.Errorf("iterations with stride 4: %d, %v; want 5", totals[l], err)
	}
	if _, err := Iterations(l, bind(0)); !errors.Is(err, symbolic.ErrStepNotPositive) {
		t.Errorf("iterations with stride 0: error %v, want %v", err, symbolic.ErrStepNotPositive)
	}
}

func TestMemoryCountsRefused(t *testing.T) {
	p := load(t, "testdata/memory")
	marks := markers(t, "testdata/memory/memory.go")
	mk := loopAt(t, p, marks["make-rows"])
	if mk.Reduction.Reducible || !strings.Contains(strings.Join(mk.Reduction.Reasons, ";"), "stores a new slice into memory") {
		t.Errorf("the loop making rows: reducible %v, reasons %v; want not reduced, as it stores new slices", mk.Reduction.Reducible, mk.Reduction.Reasons)
	}
	sh := loopAt(t, p, marks["shrink"])
	if sh.Trip != nil && symbolic.Uses(sh.Trip, func(s *symbolic.Sym) bool { return s.Mem != nil }) {
		t.Errorf("the loop that stores to its bound counts %s from memory", sh.Trip)
	}
}

// Random numbers do not keep a Monte Carlo loop from being reduced.
func TestRandomNumbersReduced(t *testing.T) {
	p := load(t, "testdata/memory")
	l := loopAt(t, p, markers(t, "testdata/memory/memory.go")["montecarlo"])
	if l.Reduction.Nest != l {
		t.Errorf("the Monte Carlo loop is not reduced: %v", l.Reduction.Reasons)
	}
}
