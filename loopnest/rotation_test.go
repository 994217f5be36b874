package loopnest

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

func TestRotationAt(t *testing.T) {
	// 0 -> 1 -> 2 -> 0 (a cycle of three), 3 -> 0 (into it), 4 -> 4.
	r := &Rotation{Next: []int{1, 2, 0, 0, 4}}
	r.Phis = make([]*ssa.Phi, 5)
	for _, tc := range []struct {
		i     int
		trips int64
		want  int
	}{
		{0, 0, 0}, {0, 1, 1}, {0, 2, 2}, {0, 3, 0}, {0, 3e9 + 1, 1},
		{3, 0, 3}, {3, 1, 0}, {3, 2, 1}, {3, 1e12, 0},
		{4, 7, 4},
	} {
		if got := r.At(tc.i, tc.trips); got != tc.want {
			t.Errorf("At(%d, %d) = %d, want %d", tc.i, tc.trips, got, tc.want)
		}
	}
}

func TestSwappedBuffersAreReduced(t *testing.T) {
	p := load(t, "testdata/callees")
	marks := markers(t, "testdata/callees/callees.go")
	l := loopAt(t, p, marks["swap"])
	if l.Reduction.Nest != l {
		t.Fatalf("loop %s is not the root of a reduced nest: %v", l.ID, l.Reduction.Reasons)
	}
	rot := l.Rotation
	if rot == nil || len(rot.Phis) != 2 || rot.Next[0] != 1 || rot.Next[1] != 0 {
		t.Fatalf("rotation %+v, want two phis trading places", rot)
	}
	// The callee's loop counts over a buffer: its length, as the
	// evaluator answers it for a rotating phi, binds the count.
	env := bindParams(l.Func, map[string]int64{"n": 4, "m": 7})
	for _, phi := range rot.Phis {
		env[phi] = 7
	}
	totals, err := Iterations(l, env)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	l.WalkAll(func(x *Loop) { got = append(got, totals[x]) })
	if len(got) != 2 || got[0] != 4 || got[1] != 24 {
		t.Errorf("iterations %v, want [4 24] (the loop's, then shift's over len-1 = 6 per call)", got)
	}

	d := loopAt(t, p, marks["drift"])
	if d.Reduction.Nest == d {
		t.Fatalf("loop %s is reduced though its results steer the call after it", d.ID)
	}
	if !slices.ContainsFunc(d.Reduction.Reasons, func(r string) bool { return strings.HasPrefix(r, "its result") }) {
		t.Errorf("reasons %q, want its results steering", d.Reduction.Reasons)
	}
}
