package loopnest

import (
	"testing"
)

func TestGotos(t *testing.T) {
	p := load(t, "testdata/gotos")
	byFunc := map[string][]*Loop{}
	for _, f := range p.Funcs {
		byFunc[funcName(f.Fn)] = f.Loops
	}
	if ls := byFunc["gotos.Irreducible"]; len(ls) != 0 {
		t.Errorf("the irreducible cycle became loops: %v", ls[0].ID)
	}
	// The backward goto counts like a for loop; its sum is returned as an
	// integer, so it is not reduced.
	back := byFunc["gotos.BackwardGoto"]
	if len(back) != 1 || back[0].Trip == nil || back[0].Trip.String() != "max(0, n)" || back[0].Reduction.Reducible {
		t.Errorf("backward goto: %+v", back)
	} else if !back[0].Reduction.SteersOnly() {
		t.Errorf("backward goto: reasons %q, want SteersOnly (its sum returned is the one reason)", back[0].Reduction.Reasons)
	}
	inf := byFunc["gotos.Infinite"]
	if len(inf) != 1 || inf[0].Trip != nil || inf[0].Reduction.Reducible {
		t.Fatalf("infinite loop: %+v", inf)
	}
	if inf[0].Reduction.SteersOnly() {
		t.Errorf("infinite loop: SteersOnly with reasons %q", inf[0].Reduction.Reasons)
	}
	if len(inf[0].Effects) == 0 || inf[0].Effects[0].Name != "channel send" {
		t.Errorf("infinite loop effects = %v, want a channel send", inf[0].Effects)
	}
	// Without the model, FindLoops sees the same loops.
	for _, f := range p.Funcs {
		if got := len(FindLoops(f.Fn)); got != len(f.Loops) {
			t.Errorf("%s: FindLoops finds %d loops, the model %d", f.Fn, got, len(f.Loops))
		}
	}
}
