package interpreter

import (
	"strings"
	"testing"
)

// An assumption made at an instruction without a position (the call of
// a range-over-func iterator) names the nearest position before it, in
// the range statement, not "-"; and says it is such a loop.
func TestAssumptionWithoutPositionBorrowsOne(t *testing.T) {
	_, sp := simulateTestdata(t, "./testdata/rangefunc", 2)
	var found bool
	for _, a := range sp.Assumptions() {
		if !strings.Contains(a.What, "range over an iterator function") {
			continue
		}
		found = true
		if !strings.Contains(a.Pos, "main.go:15:") {
			t.Errorf("assumption at %q, want the range statement's line, main.go:15", a.Pos)
		}
	}
	if !found {
		t.Errorf("no assumption about the iterator call: %v", sp.Assumptions())
	}
}
