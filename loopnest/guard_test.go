package loopnest

import (
	"testing"

	"github.com/parpredict/parpredict/loopnest/symbolic"
)

// rankEnv answers the rank and the rank count.
type rankEnv struct{ rank, size int64 }

func (e rankEnv) Lookup(s *symbolic.Sym) (int64, bool) {
	switch s.Kind {
	case symbolic.Rank:
		return e.rank, true
	case symbolic.Size:
		return e.size, true
	}
	return 0, false
}

// TestGuardsCount: a loop (or a kernel's) behind a test on the rank in a
// loop over all items is counted in the iterations where the test holds,
// whether the items are few enough to test one by one or counted by the
// test's period; without trust, in every iteration.
func TestGuardsCount(t *testing.T) {
	p := load(t, "testdata/guards")
	marks := markers(t, "testdata/guards/guards.go")
	all := func(*Guard) bool { return true }
	for _, tc := range []struct {
		mark       string
		guard      string
		n, m       int64
		rank, size int64
		want       int64 // iterations of the guarded loop
	}{
		{"skip", "range%size == rank", 10, 7, 1, 4, 3 * 7},
		{"skip", "range%size == rank", 100003, 2, 3, 4, 25000 * 2},
		{"skip", "range%size == rank", 100003, 2, 0, 1, 100003 * 2},
		{"own", "(i+1)%size == rank", 10, 7, 0, 4, 2 * 7},
		{"own", "(i+1)%size == rank", 200001, 1, 1, 3, 66667},
		{"root", "rank == 0", 10, 7, 0, 4, 70},
		{"root", "rank == 0", 10, 7, 2, 4, 0},
		{"data", "(range+1)%size == rank", 10, 7, 1, 4, 3 * 7},
	} {
		t.Run(tc.mark, func(t *testing.T) {
			l := loopAt(t, p, marks[tc.mark])
			if l.Reduction.Nest != l {
				t.Fatalf("loop %s is not the root of a reduced nest: %v", l.ID, l.Reduction.Reasons)
			}
			children := l.Children(true)
			if len(children) != 1 || len(children[0].Guards) != 1 {
				t.Fatalf("want one inner or callee loop with one guard, got %d loops", len(children))
			}
			guarded := children[0]
			if g := guarded.Guards[0].String(); g != tc.guard {
				t.Errorf("guard %q, want %q", g, tc.guard)
			}
			vals := map[string]int64{"n": tc.n, "m": tc.m}
			env := symbolic.Chain{bindParams(l.Func, vals), rankEnv{tc.rank, tc.size}, lenEnv(tc.n)}
			totals, err := IterationsGuarded(l, env, true, all)
			if err != nil {
				t.Fatal(err)
			}
			if totals[guarded] != tc.want {
				t.Errorf("n = %d, rank %d of %d: %d iterations, want %d", tc.n, tc.rank, tc.size, totals[guarded], tc.want)
			}
			untrusted, err := Iterations(l, env)
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.n * tc.m; untrusted[guarded] != want {
				t.Errorf("without trust: %d iterations, want %d", untrusted[guarded], want)
			}
		})
	}
}

// lenEnv answers every length.
type lenEnv int64

func (e lenEnv) Lookup(s *symbolic.Sym) (int64, bool) {
	if s.Kind == symbolic.Len {
		return int64(e), true
	}
	return 0, false
}
