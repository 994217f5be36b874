package interpreter

import (
	"errors"
	"strings"
	"testing"
	"unsafe"
)

// ringSteps runs the ring program on 2 ranks with the given step limit and
// returns the instructions rank 0 executed.
func ringSteps(t *testing.T, limit int64) (int64, error) {
	t.Helper()
	prog, pkg := loadSSA(t, "./testdata/ring")
	o := &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-7}
	sp, err := NewSSAPrograms(prog, pkg, o, 2, ExecOptions{Args: []string{"-n", "20", "-steps", "3"}, MaxSteps: limit})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Simulate(net1, sp.Programs(), Options{})
	return sp.ranks[0].steps, err
}

// Phis are passed over on block entry but still count as executed
// instructions: the step limit must bite at exactly the same instruction
// as when every instruction was stepped.
func TestStepLimitCountsEveryInstruction(t *testing.T) {
	total, err := ringSteps(t, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		limit   int64
		wantErr bool
	}{
		{total, false},
		{total - 1, true},
		{total / 2, true},
	} {
		_, err := ringSteps(t, tc.limit)
		var re *RankError
		if got := err != nil; got != tc.wantErr {
			t.Errorf("limit %d of %d: error %v, want error %v", tc.limit, total, err, tc.wantErr)
		} else if got && (!errors.As(err, &re) || !strings.Contains(err.Error(), "gave up after")) {
			t.Errorf("limit %d: %v", tc.limit, err)
		}
	}
}

// Every frame slot read and write copies a value: its size is a
// performance invariant (see value's comment).
func TestValueSize(t *testing.T) {
	if got := unsafe.Sizeof(value{}); got != 48 {
		t.Errorf("value is %d bytes, want 48", got)
	}
}

func TestCompiledOperands(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/ring")
	sh := newProgramShared(prog, &testOracle{user: pkg.Pkg.Path()})
	for _, fn := range []string{"main", "work"} {
		f := pkg.Func(fn)
		fc := sh.code(f)
		if sh.code(f) != fc {
			t.Errorf("%s compiled twice", fn)
		}
		for v, slot := range fc.index {
			if slot < 0 || int(slot) >= fc.nslots {
				t.Errorf("%s: %s has slot %d (of %d)", fn, v.Name(), slot, fc.nslots)
			}
		}
		// pushCode puts the parameters in the first slots.
		for i, p := range f.Params {
			if got := fc.index[p]; got != int32(i) {
				t.Errorf("%s: parameter %d has slot %d", fn, i, got)
			}
		}
		// Values that are never live together share slots.
		if fc.nslots >= len(fc.index) {
			t.Errorf("%s: %d slots for %d values: none shared", fn, fc.nslots, len(fc.index))
		}
		for _, bc := range fc.blocks {
			if len(bc.code) != len(bc.b.Instrs) || len(bc.edges) != len(bc.b.Preds) || len(bc.succ) != len(bc.b.Succs) {
				t.Errorf("%s block %d: tables do not match the block", fn, bc.b.Index)
			}
			for i, s := range bc.b.Succs {
				if s.Preds[bc.succ[i]] != bc.b {
					t.Errorf("%s block %d: successor %d entered by the wrong edge", fn, bc.b.Index, i)
				}
			}
		}
	}
}
