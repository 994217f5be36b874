package interpreter

import (
	"strings"
	"testing"
)

func TestFirstTouchChargesFreshReceivesOnce(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/firsttouch")
	const pageTime = 1e-5
	const pages = 1 << 16 * 8 / 4096 // one buffer of the program
	for _, tc := range []struct {
		ft   FirstTouch
		want [2]float64 // compute of ranks 0 and 1
	}{
		{FirstTouch{}, [2]float64{0, 0}},
		// Rank 0: fresh and the first tmp. Rank 1 also receives both
		// halves of half.
		{FirstTouch{PageSize: 4096, PageTime: pageTime}, [2]float64{2 * pages * pageTime, 3 * pages * pageTime}},
	} {
		o := &testOracle{user: pkg.Pkg.Path()}
		sp, err := NewSSAPrograms(prog, pkg, o, 2, ExecOptions{FirstTouch: tc.ft})
		if err != nil {
			t.Fatal(err)
		}
		run, err := Simulate(net1, sp.Programs(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for r, want := range tc.want {
			near(t, "compute", run.Ranks[r].Compute, want)
		}
		found := false
		for _, a := range sp.Assumptions() {
			found = found || strings.Contains(a.What, "receives into fresh memory")
		}
		if found != tc.ft.on() {
			t.Errorf("%+v: assumption reported %v", tc.ft, found)
		}
	}
}

func TestFreshPagesTouch(t *testing.T) {
	fp := &freshPages{elemSize: 8, pageSize: 4096, pages: 10} // 512 elements a page
	for _, tc := range []struct {
		lo, hi, fresh, covered int64
	}{
		{0, 1, 1, 1},          // page 0
		{0, 512, 0, 1},        // page 0 again
		{1024, 1025, 1, 2},    // page 2
		{511, 1537, 2, 4},     // pages 0-3, of which 1 and 3 are new
		{4096, 4096, 0, 4},    // empty
		{4000, 6000, 3, 7},    // pages 7-9 (capped at the allocation)
		{0, 5120, 3, 10},      // pages 4-6 were missing
		{-10, 1 << 40, 0, 10}, // clamped, all touched
	} {
		if got := fp.touch(tc.lo, tc.hi); got != tc.fresh || fp.covered != tc.covered {
			t.Errorf("touch(%d, %d) = %d fresh, %d covered; want %d, %d (spans %v)", tc.lo, tc.hi, got, fp.covered, tc.fresh, tc.covered, fp.touched)
		}
	}
	if len(fp.touched) != 1 || fp.touched[0] != (pageSpan{0, 10}) {
		t.Errorf("spans %v, want one [0,10)", fp.touched)
	}
}

// Writing a fresh allocation element by element (a loop the interpreter
// executes) keeps one span and allocates nothing per write.
func TestFreshPagesSequentialWrites(t *testing.T) {
	fp := &freshPages{elemSize: 8, pageSize: 4096, pages: 128}
	fp.touch(0, 1)
	allocs := testing.AllocsPerRun(100, func() {
		for i := int64(0); i < 128*512; i++ {
			fp.touch(i, i+1)
		}
	})
	if allocs != 0 || fp.covered != 128 || len(fp.touched) != 1 {
		t.Errorf("%v allocations per pass, %d pages covered in %d spans; want 0, 128, 1", allocs, fp.covered, len(fp.touched))
	}
}
