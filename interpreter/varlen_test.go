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

// A partner the program computes after a branch the interpreter decided
// by its profiled frequency is out of range where the real run's never
// is: the error says the value may follow the guess, and where that was,
// rather than blaming the program alone.
func TestGuessedPartnerNamesTheGuess(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/guessedpeer")
	o := &testOracle{user: pkg.Pkg.Path(), defaultBranch: 1e-9} // the search "finds nothing"
	sp, err := NewSSAPrograms(prog, pkg, o, 2, ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Simulate(net1, sp.Programs(), Options{})
	if err == nil {
		t.Fatal("the partner -1 was taken")
	}
	for _, want := range []string{"destination rank -1 is out of range", "decided 1 branches on data it does not know", "main.go:18"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
