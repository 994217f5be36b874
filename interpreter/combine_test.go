package interpreter

import "testing"

// TestCollectivesCarryKnownValues runs testdata/collectives, whose
// reductions and gathers combine counts every rank knows, at several
// rank counts: every check must be on known values (the test oracle has
// no branch frequencies) and hold, as it does for real.
func TestCollectivesCarryKnownValues(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/collectives")
	for _, p := range []int{1, 2, 4, 5} {
		o := &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-6}
		sp, err := NewSSAPrograms(prog, pkg, o, p, ExecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Simulate(net1, sp.Programs(), Options{}); err != nil {
			t.Errorf("P=%d: %v", p, err)
		}
	}
}

// TestCombine: an element that one member does not know is unknown in
// the result; the others combine.
func TestCombine(t *testing.T) {
	parts := []any{
		reduceSend{vals: []value{intv(1), floatv(2)}, op: 0},
		reduceSend{vals: []value{unknown, floatv(0.5)}, op: 0},
	}
	out, ok := combine(Contributions{Kind: OpAllreduce, Parts: parts})
	if !ok || out[0].known() || out[1].k != vFloat || out[1].fl() != 2.5 {
		t.Errorf("combine = %v, %v", out, ok)
	}
	parts[1] = reduceSend{vals: []value{intv(1)}, op: 0}
	if _, ok := combine(Contributions{Kind: OpAllreduce, Parts: parts}); ok {
		t.Error("contributions of different lengths combined")
	}
	g, ok := combine(Contributions{Kind: OpAllgather, Parts: []any{[]value{intv(1)}, []value{intv(2), intv(3)}}})
	if !ok || len(g) != 3 || g[2].i != 3 {
		t.Errorf("gather = %v, %v", g, ok)
	}
	four := []value{intv(0), intv(1), intv(2), intv(3)}
	sc, ok := combine(Contributions{Kind: OpScatter, Parts: []any{nil, four}, Me: 0, Root: 1})
	if !ok || len(sc) != 2 || sc[1].i != 1 {
		t.Errorf("scatter = %v, %v", sc, ok)
	}
	a2a, ok := combine(Contributions{Kind: OpAlltoall, Parts: []any{four, []value{intv(10), intv(11), intv(12), intv(13)}}, Me: 1})
	if !ok || len(a2a) != 4 || a2a[0].i != 2 || a2a[3].i != 13 {
		t.Errorf("alltoall = %v, %v", a2a, ok)
	}
	if _, ok := combine(Contributions{Kind: OpAlltoall, Parts: []any{four, []value{intv(1)}}}); ok {
		t.Error("an all-to-all of blocks that do not divide combined")
	}
	if perMember(maxGathered, 1024) != 1024 || perMember(maxPayload, 2) != maxPayload {
		t.Errorf("perMember: %d, %d", perMember(maxGathered, 1024), perMember(maxPayload, 2))
	}
}
