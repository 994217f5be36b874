package interpreter

import (
	"testing"
)

// TestExamplesRunInTheEvaluator executes every example's SSA for 1 to 3
// ranks with flat block costs and a default branch frequency standing in
// for a profile: no construct of the examples may be unsupported, and more
// ranks must mean more MPI operations.
func TestExamplesRunInTheEvaluator(t *testing.T) {
	if testing.Short() {
		t.Skip("loads SSA for every example")
	}
	cases := map[string][]string{
		"matmul":     {"-n", "40", "-check=false"},
		"heat":       {"-n", "20", "-steps", "5", "-check=false"},
		"transpose":  {"-n", "16", "-check=false"},
		"mandelbrot": {"-width", "16", "-height", "16", "-maxiter", "50", "-check=false"},
		"cg":         {"-n", "12", "-maxit", "5", "-check=false"},
	}
	for name, args := range cases {
		prog, pkg := loadSSA(t, "../examples/"+name)
		o := &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-8, defaultBranch: 0.9}
		var prevOps int64
		for _, p := range []int{1, 2, 3} {
			sp, err := NewSSAPrograms(prog, pkg, o, p, ExecOptions{Args: args})
			if err != nil {
				t.Fatal(err)
			}
			run, err := Simulate(net1, sp.Programs(), Options{})
			if err != nil {
				t.Errorf("%s P=%d: %v", name, p, err)
				continue
			}
			if run.Makespan <= 0 || run.Ops <= prevOps {
				t.Errorf("%s P=%d: makespan %g, %d operations (P-1 had %d)", name, p, run.Makespan, run.Ops, prevOps)
			}
			prevOps = run.Ops
		}
	}
}
