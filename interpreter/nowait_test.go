package interpreter

import "testing"

// Waitall of a nil request list (a rank with no neighbour) waits for
// nothing; with one or two requests it waits for them.
func TestWaitallOfNoRequests(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/nowait")
	for _, p := range []int{1, 3} {
		o := &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-6}
		sp, err := NewSSAPrograms(prog, pkg, o, p, ExecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		run, err := Simulate(net1, sp.Programs(), Options{})
		if err != nil {
			t.Fatalf("P = %d: %v", p, err)
		}
		if want := int64(p - 1); run.Messages != want {
			t.Errorf("P = %d: %d messages, want %d", p, run.Messages, want)
		}
	}
}
