package interpreter

import (
	"strings"
	"testing"
)

// A receive buffer whose length the interpreter does not know (sized by
// a library call from a count received before) takes the message it gets:
// the simulation goes on, with the guess among the assumptions, where it
// failed the program for a truncation that the real run never has.
func TestUnknownReceiveBufferTakesTheMessage(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/varlen")
	run, sp := simulateWith(t, prog, pkg, &testOracle{user: pkg.Pkg.Path()}, 2)
	if run.Ops == 0 {
		t.Fatal("no MPI operations simulated")
	}
	found := false
	for _, a := range sp.Assumptions() {
		found = found || strings.Contains(a.What, "receive buffer length unknown, taken to hold the message")
	}
	if !found {
		t.Errorf("assumptions %v, want the receive buffer's", sp.Assumptions())
	}
}
