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
		// In the transfers: the Bcasts' faults leave rank 1's compute;
		// the reductions' stay (the rank writes its result itself).
		{FirstTouch{PageSize: 4096, PageTime: pageTime, InTransfer: true}, [2]float64{2 * pages * pageTime, 2 * pages * pageTime}},
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

// A rendezvous copy into fresh memory waits for its page faults: the
// sender is held by them as the receiver is.
func TestFaultInRendezvousTransfer(t *testing.T) {
	n, fault := 1<<20, 3e-4
	run, err := Simulate(net1, []Program{
		ops(Op{Kind: OpSend, Peer: 1, Bytes: n}),
		ops(Op{Kind: OpRecv, Peer: 0, Bytes: n, Fault: fault}),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	xfer := float64(n) / net1.B
	near(t, "sender", run.Ranks[0].Finish, net1.o+2*net1.L+xfer+fault)
	near(t, "receiver", run.Ranks[1].Finish, net1.o+2*net1.L+xfer+fault+net1.L+net1.o)
	near(t, "receiver compute", run.Ranks[1].Compute, 0)
}

// An eager message's receiver copies it out of the eager buffer: the
// faults are its own MPI time, and the sender does not see them.
func TestFaultInEagerReceive(t *testing.T) {
	n, fault := 1000, 3e-4
	run, err := Simulate(net1, []Program{
		ops(Op{Kind: OpSend, Peer: 1, Bytes: n}),
		ops(Op{Kind: OpIrecv, Peer: 0, Bytes: n, Req: 1, Fault: fault}, Op{Kind: OpWait, Req: 1}),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	oneWay := net1.o + float64(n)/net1.B + net1.L + net1.o
	near(t, "sender", run.Ranks[0].Finish, net1.o+float64(n)/net1.B)
	near(t, "receiver", run.Ranks[1].Finish, oneWay+fault)
	near(t, "receiver MPI", run.Ranks[1].Comm, net1.o+fault)
}

// The test network's Bcast root sends to each rank in turn: with
// rendezvous messages each send waits for its receiver's faults, so they
// add up along the root's sends, and the last receiver finishes that much
// later.
func TestBcastFaultsAddUpAlongTheSends(t *testing.T) {
	const p, n, fault = 4, 1 << 20, 2e-4
	finish := func(f float64) []float64 {
		progs := []Program{ops(Op{Kind: OpBcast, Bytes: n})}
		for range p - 1 {
			progs = append(progs, ops(Op{Kind: OpBcast, Bytes: n, Fault: f}))
		}
		run, err := Simulate(net1, progs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var out []float64
		for _, r := range run.Ranks {
			out = append(out, r.Finish)
		}
		return out
	}
	without, with := finish(0), finish(fault)
	near(t, "root's delay", with[0]-without[0], (p-1)*fault)
	near(t, "last receiver's delay", with[p-1]-without[p-1], (p-1)*fault)
	near(t, "first receiver's delay", with[1]-without[1], fault)
}

// A rank that receives nothing in a collective (a Scatter's root, a rank
// alone) copies its own block: the faults are its MPI time.
func TestFaultOfACollectiveWithoutReceives(t *testing.T) {
	const fault = 5e-4
	run, err := Simulate(net1, []Program{ops(Op{Kind: OpScatter, Bytes: 1 << 20, Fault: fault})}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "finish", run.Ranks[0].Finish, fault)
	near(t, "MPI", run.Ranks[0].Comm, fault)
}
