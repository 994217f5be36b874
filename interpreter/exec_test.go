package interpreter

import (
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

type loaded struct {
	prog *ssa.Program
	pkg  *ssa.Package
}

// ssaCache keeps each loaded program for the whole test binary: loading is
// the slow part, and the evaluator never modifies the SSA.
var ssaCache = map[string]loaded{}

// loadSSA builds SSA for a testdata program.
func loadSSA(t *testing.T, dir string) (*ssa.Program, *ssa.Package) {
	t.Helper()
	if l, ok := ssaCache[dir]; ok {
		return l.prog, l.pkg
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax}
	pkgs, err := packages.Load(cfg, dir)
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading %s: %v", dir, err)
	}
	prog, ssaPkgs := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	ssaCache[dir] = loaded{prog, ssaPkgs[0]}
	return prog, ssaPkgs[0]
}

// testOracle charges a fixed cost per block of user code and can reduce
// one loop.
type testOracle struct {
	user          string
	perBlock      float64
	reduce        map[[2]*ssa.BasicBlock]*Reduction
	branch        map[*ssa.BasicBlock]float64
	callCost      float64
	defaultBranch float64
}

func (o *testOracle) IsUser(fn *ssa.Function) bool { return fn != nil && pkgPath(fn) == o.user }
func (o *testOracle) BlockCost(b *ssa.BasicBlock) float64 {
	if o.IsUser(b.Parent()) {
		return o.perBlock
	}
	return 0
}
func (o *testOracle) Reduction(from, to *ssa.BasicBlock) *Reduction {
	return o.reduce[[2]*ssa.BasicBlock{from, to}]
}
func (o *testOracle) BranchTaken(b *ssa.BasicBlock) (float64, bool) {
	p, ok := o.branch[b]
	if !ok && o.defaultBranch > 0 {
		return o.defaultBranch, true
	}
	return p, ok
}
func (o *testOracle) CallCost(ssa.CallInstruction) float64 { return o.callCost }

func simulateRing(t *testing.T, o *testOracle, p int, args ...string) (*Run, *SSAPrograms) {
	t.Helper()
	prog, pkg := loadSSA(t, "./testdata/ring")
	o.user = pkg.Pkg.Path()
	sp, err := NewSSAPrograms(prog, pkg, o, p, ExecOptions{Args: args})
	if err != nil {
		t.Fatal(err)
	}
	run, err := Simulate(net1, sp.Programs(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return run, sp
}

func TestSSARingRunsAsWritten(t *testing.T) {
	for _, p := range []int{1, 3, 4} {
		run, _ := simulateRing(t, &testOracle{perBlock: 1e-7}, p, "-n", "50", "-steps", "5")
		perRank := int64(5) // Allreduce per step
		if p > 1 {
			perRank = 10 // plus a Sendrecv
		}
		if run.Ops != int64(p)*perRank {
			t.Errorf("P=%d: %d operations, want %d", p, run.Ops, int64(p)*perRank)
		}
		if run.Ranks[0].Compute <= 0 {
			t.Errorf("P=%d: no compute time charged", p)
		}
	}
}

func TestSSAComputeScalesWithArguments(t *testing.T) {
	small, _ := simulateRing(t, &testOracle{perBlock: 1e-7}, 2, "-n", "100")
	large, _ := simulateRing(t, &testOracle{perBlock: 1e-7}, 2, "-n", "1000")
	ratio := large.Ranks[0].Compute / small.Ranks[0].Compute
	if ratio < 8 || ratio > 10.5 {
		t.Errorf("compute ratio for 10x the elements = %.2f", ratio)
	}
}

func TestSSAReducedLoopIsNotExecuted(t *testing.T) {
	const perIter = 1e-6
	// No Needs: the nest may ask for any value of work (a slot per value).
	prog, pkg, o := ringReduction(t, func(ssa.Value) []ssa.Value { return nil }, perIter)
	sp, err := NewSSAPrograms(prog, pkg, o, 2, ExecOptions{Args: []string{"-n", "100000000", "-steps", "4"}})
	if err != nil {
		t.Fatal(err)
	}
	run, err := Simulate(net1, sp.Programs(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 4 steps of 1e8 iterations: 400 s of modelled compute, done without
	// executing (or allocating) anything of that size.
	near(t, "compute", run.Ranks[0].Compute, 4*1e8*perIter)
}

func isReturn(b *ssa.BasicBlock) bool {
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
	return ok
}

func TestSSAErrorsNamePositions(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/ring")
	o := &testOracle{user: pkg.Pkg.Path()}
	sp, err := NewSSAPrograms(prog, pkg, o, 2, ExecOptions{Args: []string{"-bogus"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Simulate(net1, sp.Programs(), Options{})
	if err == nil || !strings.Contains(err.Error(), "flag provided but not defined: -bogus") || !strings.Contains(err.Error(), "main.go:") {
		t.Fatalf("got %v", err)
	}
}

func TestZeroValues(t *testing.T) {
	s := types.NewStruct([]*types.Var{
		types.NewField(0, nil, "a", types.Typ[types.Int], false),
		types.NewField(0, nil, "b", types.Typ[types.Float64], false),
	}, nil)
	v := zeroValue(types.NewArray(s, 1e9)) // never allocated element by element
	e := v.obj.get(123456789)
	if e.k != vStruct || e.obj.get(0).k != vInt || e.obj.get(1).k != vFloat {
		t.Fatalf("element %+v", e)
	}
	e.obj.set(0, intv(5))
	if v.obj.get(123456789).obj.get(0).i != 5 || v.obj.get(1).obj.get(0).i != 0 {
		t.Error("aggregate elements alias each other")
	}
}
