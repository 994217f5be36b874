package interpreter

import (
	"testing"

	"golang.org/x/tools/go/ssa"
)

// simulateTestdata runs the SSA ranks of a testdata program at p ranks on
// net1, every user block costing 1 us.
func simulateTestdata(t *testing.T, dir string, p int) (*Run, *SSAPrograms) {
	t.Helper()
	prog, pkg := loadSSA(t, dir)
	return simulateWith(t, prog, pkg, &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-6}, p)
}

// simulateWith runs the SSA ranks of pkg at p ranks on net1 with oracle o
// and the program arguments args.
func simulateWith(t *testing.T, prog *ssa.Program, pkg *ssa.Package, o Oracle, p int, args ...string) (*Run, *SSAPrograms) {
	t.Helper()
	sp, err := NewSSAPrograms(prog, pkg, o, p, ExecOptions{Args: args})
	if err != nil {
		t.Fatal(err)
	}
	run, err := Simulate(net1, sp.Programs(), Options{})
	if err != nil {
		t.Fatalf("P = %d: %v", p, err)
	}
	return run, sp
}

// Waitall of a nil request list (a rank with no neighbour) waits for
// nothing; with one or two requests it waits for them.
func TestWaitallOfNoRequests(t *testing.T) {
	for _, p := range []int{1, 3} {
		run, _ := simulateTestdata(t, "./testdata/nowait", p)
		if want := int64(p - 1); run.Messages != want {
			t.Errorf("P = %d: %d messages, want %d", p, run.Messages, want)
		}
	}
}
