package interpreter

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// simulateSlots runs testdata/slots on p ranks with slot sharing on or off.
func simulateSlots(t *testing.T, p int, share bool) *Run {
	t.Helper()
	defer func(old bool) { shareSlots = old }(shareSlots)
	shareSlots = share
	prog, pkg := loadSSA(t, "./testdata/slots")
	o := &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-7}
	sp, err := NewSSAPrograms(prog, pkg, o, p, ExecOptions{Args: []string{"-n", "12"}})
	if err != nil {
		t.Fatal(err)
	}
	run, err := Simulate(net1, sp.Programs(), Options{Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// Values that share a slot are never live together: the simulation, whose
// messages and executed blocks depend on every value the program
// computes, is the same as with a slot per value.
func TestSlotSharingChangesNothing(t *testing.T) {
	for _, p := range []int{1, 2, 3, 5} {
		own, shared := simulateSlots(t, p, false), simulateSlots(t, p, true)
		if !reflect.DeepEqual(own, shared) {
			t.Errorf("P = %d: the simulation with shared slots differs: makespan %g, %d ops against %g, %d ops",
				p, shared.Makespan, shared.Ops, own.Makespan, own.Ops)
		}
		if own.Ops < int64(12*p) {
			t.Errorf("P = %d: %d MPI operations: the program did not run its steps", p, own.Ops)
		}
	}
	// The plan does share: spread's temporaries need far fewer slots.
	prog, pkg := loadSSA(t, "./testdata/slots")
	sh := newProgramShared(prog, &testOracle{user: pkg.Pkg.Path()})
	fc := sh.code(pkg.Func("spread"))
	if fc.nslots > len(fc.index)/2 {
		t.Errorf("spread: %d slots for %d values", fc.nslots, len(fc.index))
	}
}

// ringReduction reduces the loop of the ring program's work function: its
// time is perIter per element of work's slice, whose length it asks the
// binder for; needs gives its Needs from that length's value.
func ringReduction(t *testing.T, needs func(lenVal ssa.Value) []ssa.Value, perIter float64) (*ssa.Program, *ssa.Package, *testOracle) {
	t.Helper()
	prog, pkg := loadSSA(t, "./testdata/ring")
	work := pkg.Func("work")
	var header, exit *ssa.BasicBlock
	entry := work.Blocks[0]
	for _, b := range work.Blocks {
		for _, pred := range b.Preds {
			if pred.Index > b.Index {
				header = b
			}
		}
	}
	var lenVal ssa.Value
	for _, in := range entry.Instrs {
		if c, ok := in.(*ssa.Call); ok {
			if b, ok := c.Call.Value.(*ssa.Builtin); ok && b.Name() == "len" {
				lenVal = c
			}
		}
	}
	if header == nil || lenVal == nil {
		t.Fatalf("test setup: loop header %v len %v", header, lenVal)
	}
	var blocks []*ssa.BasicBlock
	for _, b := range work.Blocks {
		if b != entry && b.Index >= header.Index {
			blocks = append(blocks, b)
		}
	}
	for _, s := range header.Succs {
		if s.Index < header.Index || len(s.Instrs) > 0 && isReturn(s) {
			exit = s
		}
	}
	if exit == nil {
		t.Fatalf("test setup: no exit of %v", header)
	}
	red := &Reduction{ID: "work:loop", Blocks: blocks, ExitFrom: header, Exit: exit,
		Writes: []ssa.Value{work.Params[0]}, Needs: needs(lenVal),
		Time: func(bind Binder) (float64, error) {
			n, ok := bind.Value(lenVal)
			if !ok {
				return 0, errors.New("trip count unknown")
			}
			return float64(n) * perIter, nil
		}}
	return prog, pkg, &testOracle{user: pkg.Pkg.Path(), reduce: map[[2]*ssa.BasicBlock]*Reduction{{entry, header}: red}}
}

// A reduced nest gets the values it needs from a function whose slots are
// shared; a value it did not declare it needs is answered as unknown, so
// the nest is executed instead (and says so).
func TestReducedNestNeedsWithSharedSlots(t *testing.T) {
	const perIter = 1e-6
	for _, tc := range []struct {
		name     string
		needs    func(ssa.Value) []ssa.Value
		executed bool
	}{
		{"declared", func(v ssa.Value) []ssa.Value { return []ssa.Value{v} }, false},
		{"undeclared", func(ssa.Value) []ssa.Value { return []ssa.Value{} }, true},
	} {
		prog, pkg, o := ringReduction(t, tc.needs, perIter)
		run, sp := simulateWith(t, prog, pkg, o, 2, "-n", "1000", "-steps", "4")
		fc := sp.shared.codes[pkg.Func("work")]
		if fc.nslots >= len(fc.index) {
			t.Errorf("%s: work has %d slots for %d values: none shared", tc.name, fc.nslots, len(fc.index))
		}
		executed := false
		for _, a := range sp.Assumptions() {
			executed = executed || strings.Contains(a.What, "executed instead")
		}
		if executed != tc.executed {
			t.Errorf("%s: nest executed instead: %v, want %v (%v)", tc.name, executed, tc.executed, sp.Assumptions())
		}
		if !tc.executed {
			near(t, tc.name+" compute", run.Ranks[0].Compute, 4*1000*perIter)
		}
	}
}
