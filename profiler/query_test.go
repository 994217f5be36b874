package profiler

import "testing"

func TestQueries(t *testing.T) {
	half := 0.25
	p := &Profile{Regions: []Region{
		{ID: "f:if@a.go:+1:2/then", Kind: ThenArm, Execs: 1, Prob: &half},
		{ID: "f:loop@a.go:+2:2", Kind: Loop, Timed: true, Iters: 10, OwnNs: 50, OwnPerIterNs: 5},
		{ID: "f:loop@a.go:+3:3", Kind: Loop, Iters: 100},
		{ID: "f:libcall@a.go:+4:3", Kind: Call, Library: true, Timed: true, Execs: 4, OwnNs: 8, TotalNs: 9},
		{ID: "f:call@a.go:+5:3", Kind: Call, Timed: true, Execs: 2, OwnNs: 1, TotalNs: 30},
	}}
	if v, ok := p.BranchTaken("f:if@a.go:+1:2"); !ok || v != 0.25 {
		t.Errorf("BranchTaken = %v, %v", v, ok)
	}
	if _, ok := p.BranchTaken("f:if@a.go:+9:2"); ok {
		t.Error("BranchTaken of an unknown if")
	}
	if v, ok := p.LoopPerIter("f:loop@a.go:+2:2"); !ok || v != 5 {
		t.Errorf("LoopPerIter = %v, %v", v, ok)
	}
	if _, ok := p.LoopPerIter("f:loop@a.go:+3:3"); ok {
		t.Error("LoopPerIter of an untimed loop")
	}
	if v, ok := p.CallCost("f:libcall@a.go:+4:3"); !ok || v != 2 {
		t.Errorf("library CallCost = %v, %v", v, ok)
	}
	if v, ok := p.CallCost("f:call@a.go:+5:3"); !ok || v != 15 {
		t.Errorf("user CallCost = %v, %v", v, ok)
	}
}
