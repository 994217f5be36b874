package interpreter

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// hockney is a test network: overhead o per side, latency L, bandwidth B,
// eager up to eager bytes, ranks per node ppn sharing one channel per node
// for inter-node messages, slowdown = cf (fair sharing). Collectives are
// linear (root sends to / receives from everyone in rank order).
type hockney struct {
	o, L, B float64
	eager   int
	ppn     int
}

func (h hockney) Message(src, dst, n int) MessageCost {
	var chans []int
	if h.ppn > 0 && src/h.ppn != dst/h.ppn {
		chans = []int{src / h.ppn}
	}
	c := MessageCost{SendOverhead: h.o, RecvOverhead: h.o, Latency: h.L, Transfer: float64(n) / h.B,
		Rendezvous: n > h.eager, Channels: chans}
	if c.Rendezvous {
		c.Handshake = h.L
	}
	return c
}

func (h hockney) Contention(_, cf, _ int) (float64, float64) { return 0, float64(cf) }

func (h hockney) Schedule(kind OpKind, p, bytes, _, root int) [][]Step {
	steps := make([][]Step, p)
	switch kind {
	case OpBcast:
		for r := range p {
			if r != root {
				steps[root] = append(steps[root], Step{Sends: []Transfer{{r, bytes}}})
				steps[r] = []Step{{Recvs: []Transfer{{root, bytes}}}}
			}
		}
	case OpScatter:
		for r := range p {
			if r != root {
				steps[root] = append(steps[root], Step{Sends: []Transfer{{r, bytes}}})
				steps[r] = []Step{{Recvs: []Transfer{{root, bytes}}}}
			}
		}
	case OpAlltoall:
		for r := range p {
			var st Step
			for q := range p {
				if q != r {
					st.Sends = append(st.Sends, Transfer{q, bytes})
					st.Recvs = append(st.Recvs, Transfer{q, bytes})
				}
			}
			steps[r] = []Step{st}
		}
	case OpReduce, OpGather:
		for r := range p {
			if r != root {
				steps[r] = []Step{{Sends: []Transfer{{root, bytes}}}}
				steps[root] = append(steps[root], Step{Recvs: []Transfer{{r, bytes}}})
			}
		}
	case OpBarrier, OpAllreduce, OpAllgather:
		for r := 1; r < p; r++ {
			steps[0] = append(steps[0], Step{Recvs: []Transfer{{r, bytes}}})
			steps[r] = []Step{{Sends: []Transfer{{0, bytes}}}, {Recvs: []Transfer{{0, bytes}}}}
		}
		for r := 1; r < p; r++ {
			steps[0] = append(steps[0], Step{Sends: []Transfer{{r, bytes}}})
		}
	}
	return steps
}

// script is a Program that plays a fixed list of (compute, op) pairs and
// records the results it is given.
type script struct {
	compute []float64
	ops     []Op
	i       int
	results []Result
}

func (s *script) Step(prev Result) (float64, Op, error) {
	if s.i > 0 {
		s.results = append(s.results, prev)
	}
	if s.i == len(s.ops) {
		c := 0.0 // compute after the last operation, if given
		if len(s.compute) > len(s.ops) {
			c = s.compute[len(s.ops)]
		}
		s.i++
		return c, Op{Kind: OpFinish}, nil
	}
	s.i++
	c := 0.0
	if s.i-1 < len(s.compute) {
		c = s.compute[s.i-1]
	}
	return c, s.ops[s.i-1], nil
}

func ops(o ...Op) *script { return &script{ops: o} }

var net1 = hockney{o: 1e-6, L: 5e-6, B: 1e9, eager: 1 << 16}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %.9g, want %.9g", what, got, want)
	}
}

func TestEagerPingPong(t *testing.T) {
	n := 1000
	run, err := Simulate(net1, []Program{
		ops(Op{Kind: OpSend, Peer: 1, Bytes: n}, Op{Kind: OpRecv, Peer: 1, Bytes: n}),
		ops(Op{Kind: OpRecv, Peer: 0, Bytes: n}, Op{Kind: OpSend, Peer: 0, Bytes: n}),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	oneWay := net1.o + float64(n)/net1.B + net1.L + net1.o
	near(t, "round trip", run.Ranks[0].Finish, 2*oneWay)
	near(t, "rank 1 finish", run.Ranks[1].Finish, oneWay+net1.o+float64(n)/net1.B)
	if run.Ops != 4 || run.Messages != 2 {
		t.Errorf("ops %d messages %d", run.Ops, run.Messages)
	}
}

func TestRendezvousHandshake(t *testing.T) {
	n := 1 << 20
	run, err := Simulate(net1, []Program{
		ops(Op{Kind: OpSend, Peer: 1, Bytes: n}),
		ops(Op{Kind: OpRecv, Peer: 0, Bytes: n}),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	xfer := float64(n) / net1.B
	// RTS (o + L), CTS (L), payload, then the receiver: L + o.
	near(t, "sender", run.Ranks[0].Finish, net1.o+2*net1.L+xfer)
	near(t, "receiver", run.Ranks[1].Finish, net1.o+2*net1.L+xfer+net1.L+net1.o)
}

func TestRendezvousWaitsForLateReceiver(t *testing.T) {
	n, late := 1<<20, 1e-3
	run, err := Simulate(net1, []Program{
		ops(Op{Kind: OpSend, Peer: 1, Bytes: n}),
		&script{compute: []float64{late}, ops: []Op{{Kind: OpRecv, Peer: 0, Bytes: n}}},
	}, Options{Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	xfer := float64(n) / net1.B
	near(t, "sender", run.Ranks[0].Finish, late+net1.L+xfer)
	near(t, "sender wait", run.Ranks[0].Wait, late+net1.L+xfer-net1.o)
	near(t, "receiver", run.Ranks[1].Finish, late+net1.L+xfer+net1.L+net1.o)
	near(t, "receiver compute", run.Ranks[1].Compute, late)
	segs := run.Timelines[1]
	if len(segs) != 3 || segs[0].Kind != Compute || segs[1].Kind != Wait || segs[2].Kind != Comm {
		t.Errorf("receiver timeline %+v", segs)
	}
}

func TestOverlapWithNonBlocking(t *testing.T) {
	n, work := 1<<20, 5e-3
	prog := func(peer int) Program {
		return &script{compute: []float64{0, 0, work, 0}, ops: []Op{
			{Kind: OpIrecv, Peer: peer, Bytes: n, Req: 1},
			{Kind: OpIsend, Peer: peer, Bytes: n, Req: 2},
			{Kind: OpWaitall, Reqs: []int{1, 2}},
		}}
	}
	run, err := Simulate(net1, []Program{prog(1), prog(0)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The transfers finish long before the work does: Waitall costs only
	// the receive overhead.
	near(t, "finish", run.Ranks[0].Finish, net1.o+work+net1.o)
	near(t, "wait", run.Ranks[0].Wait, 0)
}

// A Waitall of a request list the interpreter lost track of waits for
// every pending request of the rank: the same run as with the list.
func TestWaitallOfEveryPendingRequest(t *testing.T) {
	n, late := 1<<20, 4e-3
	prog := func(peer int, compute float64, all bool) Program {
		wait := Op{Kind: OpWaitall, Reqs: []int{1, 2}}
		if all {
			wait = Op{Kind: OpWaitall, AllPending: true}
		}
		return &script{compute: []float64{compute, 0, 0, 0}, ops: []Op{
			{Kind: OpIrecv, Peer: peer, Bytes: n, Req: 1},
			{Kind: OpIsend, Peer: peer, Bytes: n, Req: 2},
			wait,
		}}
	}
	listed, err := Simulate(net1, []Program{prog(1, 0, false), prog(0, late, false)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := Simulate(net1, []Program{prog(1, 0, true), prog(0, late, true)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for r := range 2 {
		if all.Ranks[r].Finish != listed.Ranks[r].Finish || all.Ranks[r].Wait != listed.Ranks[r].Wait {
			t.Errorf("rank %d: finish %g, wait %g with every pending request; %g, %g with the list", r, all.Ranks[r].Finish, all.Ranks[r].Wait, listed.Ranks[r].Finish, listed.Ranks[r].Wait)
		}
	}
	// Rank 0 waits for the late peer's send.
	if all.Ranks[0].Wait <= 0 {
		t.Errorf("rank 0 waited %g s for its late peer, want > 0", all.Ranks[0].Wait)
	}
}

func TestContentionOnSharedChannel(t *testing.T) {
	h := hockney{o: 0, L: 0, B: 1e9, eager: 1 << 30, ppn: 2}
	n := 1 << 20
	// Ranks 0 and 1 share node 0's channel and send to node 1 at once.
	run, err := Simulate(h, []Program{
		ops(Op{Kind: OpSend, Peer: 2, Bytes: n}),
		ops(Op{Kind: OpSend, Peer: 3, Bytes: n}),
		ops(Op{Kind: OpRecv, Peer: 0, Bytes: n}),
		ops(Op{Kind: OpRecv, Peer: 1, Bytes: n}),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	xfer := float64(n) / h.B
	near(t, "first sender", run.Ranks[0].Finish, xfer)
	near(t, "second sender (cf=2)", run.Ranks[1].Finish, 2*xfer)
}

func TestCollectiveSchedule(t *testing.T) {
	p, n := 4, 100
	progs := make([]Program, p)
	for r := range p {
		progs[r] = ops(Op{Kind: OpBcast, Root: 0, Bytes: n})
	}
	run, err := Simulate(net1, progs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	send := net1.o + float64(n)/net1.B
	for r := 1; r < p; r++ {
		// The root sends to 1, 2, 3 in turn, each send costing o + n/B.
		near(t, "receiver", run.Ranks[r].Finish, float64(r)*send+net1.L+net1.o)
	}
	near(t, "root", run.Ranks[0].Finish, float64(p-1)*send)
}

func TestAnySourceMatchesInTimeOrder(t *testing.T) {
	late := &script{compute: []float64{1e-3}, ops: []Op{{Kind: OpSend, Peer: 0, Tag: 2, Bytes: 8}}}
	early := &script{compute: []float64{1e-4}, ops: []Op{{Kind: OpSend, Peer: 0, Tag: 1, Bytes: 8}}}
	recv := ops(Op{Kind: OpRecv, Peer: AnySource, Tag: AnyTag, Bytes: 8}, Op{Kind: OpRecv, Peer: AnySource, Tag: AnyTag, Bytes: 8})
	if _, err := Simulate(net1, []Program{recv, late, early}, Options{}); err != nil {
		t.Fatal(err)
	}
	want := []Result{{Source: 2, Tag: 1, Bytes: 8}, {Source: 1, Tag: 2, Bytes: 8}}
	if !reflect.DeepEqual(recv.results, want) {
		t.Errorf("results %+v, want %+v", recv.results, want)
	}
}

func TestDeadlockReport(t *testing.T) {
	_, err := Simulate(net1, []Program{
		&script{ops: []Op{{Kind: OpRecv, Peer: 1, Bytes: 8, Site: "a.go:3"}, {Kind: OpSend, Peer: 1, Bytes: 8}}},
		&script{ops: []Op{{Kind: OpRecv, Peer: 0, Bytes: 8, Site: "a.go:3"}, {Kind: OpSend, Peer: 0, Bytes: 8}}},
		ops(),
	}, Options{})
	var d *DeadlockError
	if !errors.As(err, &d) {
		t.Fatalf("got %v", err)
	}
	if len(d.Blocked) != 2 || d.Finished != 1 || d.Blocked[1].Op != "Recv(source 0, tag 0)" || d.Blocked[0].Site != "a.go:3" {
		t.Errorf("report %+v", d)
	}
	if !strings.Contains(err.Error(), "rank 1 waits in Recv(source 0, tag 0) at a.go:3") {
		t.Errorf("message %q", err)
	}
}

// TestRendezvousSendDeadlockReport: ranks that all Send a message above
// the eager limit before they receive deadlock, and the report says why
// and what to do; with eager messages the same program runs.
func TestRendezvousSendDeadlockReport(t *testing.T) {
	ring := func(n int) []Program {
		return []Program{
			ops(Op{Kind: OpSend, Peer: 1, Bytes: n, Site: "a.go:5"}, Op{Kind: OpRecv, Peer: 1, Bytes: n}),
			ops(Op{Kind: OpSend, Peer: 0, Bytes: n, Site: "a.go:5"}, Op{Kind: OpRecv, Peer: 0, Bytes: n}),
		}
	}
	if _, err := Simulate(net1, ring(net1.eager), Options{}); err != nil {
		t.Fatalf("eager: %v", err)
	}
	_, err := Simulate(net1, ring(net1.eager+1), Options{})
	var d *DeadlockError
	if !errors.As(err, &d) || len(d.Blocked) != 2 || !d.Blocked[0].Send {
		t.Fatalf("rendezvous: %v", err)
	}
	for _, want := range []string{"rank 0 waits in Send(dest 1, tag 0, 65537 bytes) at a.go:5", "above the machine's eager limit", "Sendrecv"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
}

func TestMismatchedCollectivesDeadlock(t *testing.T) {
	_, err := Simulate(net1, []Program{
		ops(Op{Kind: OpBarrier}),
		ops(Op{Kind: OpAllreduce, Bytes: 8}),
	}, Options{})
	var d *DeadlockError
	if !errors.As(err, &d) || !strings.Contains(err.Error(), "Barrier()") || !strings.Contains(err.Error(), "Allreduce()") {
		t.Fatalf("got %v", err)
	}
}

func TestOperationErrors(t *testing.T) {
	cases := map[string][]Program{
		"does not fit":       {ops(Op{Kind: OpSend, Peer: 1, Bytes: 80}), ops(Op{Kind: OpRecv, Peer: 0, Bytes: 40})},
		"out of range":       {ops(Op{Kind: OpSend, Peer: 7, Bytes: 8})},
		"not pending":        {ops(Op{Kind: OpWait, Req: 3})},
		"never waited for":   {ops(Op{Kind: OpIrecv, Peer: 0, Req: 1}, Op{Kind: OpIsend, Peer: 0, Req: 2})},
		"is already pending": {ops(Op{Kind: OpIrecv, Peer: 0, Req: 1}, Op{Kind: OpIrecv, Peer: 0, Req: 1})},
	}
	for want, progs := range cases {
		_, err := Simulate(net1, progs, Options{})
		var re *RankError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
}

func TestDeterministic(t *testing.T) {
	mk := func() []Program {
		progs := make([]Program, 16)
		for r := range progs {
			progs[r] = newHalo(r, 16, 20, 1e-4*float64(1+r%3), 4096)
		}
		return progs
	}
	h := hockney{o: 1e-6, L: 2e-6, B: 1e9, eager: 1 << 12, ppn: 4}
	a, err := Simulate(h, mk(), Options{Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Simulate(h, mk(), Options{Timeline: true})
	if !reflect.DeepEqual(a, b) {
		t.Error("two simulations of the same programs differ")
	}
}

// TestLockstepStretchesBetweenOperations: Options.Lockstep stretches a
// rank's compute between its first and its Last-th operation, not what
// it computes before (setting up) or after (a serial check); Between is
// the compute between the first and last operation.
func TestLockstepStretchesBetweenOperations(t *testing.T) {
	prog := func() Program {
		b := Op{Kind: OpBarrier}
		return &script{compute: []float64{1, 2, 3, 4}, ops: []Op{b, b, b}}
	}
	for _, tc := range []struct {
		ls               *Lockstep
		compute, between float64
	}{
		{nil, 10, 5},
		{&Lockstep{Factor: 2, Last: []int{3, 3}}, 1 + 4 + 6 + 4, 4 + 6},
	} {
		run, err := Simulate(net1, []Program{prog(), prog()}, Options{Lockstep: tc.ls})
		if err != nil {
			t.Fatal(err)
		}
		for r, st := range run.Ranks {
			near(t, fmt.Sprintf("rank %d compute (lockstep %v)", r, tc.ls), st.Compute, tc.compute)
			near(t, fmt.Sprintf("rank %d between (lockstep %v)", r, tc.ls), st.Between, tc.between)
		}
	}
}

// TestRendezvousWithoutHandshake: where the sender sees the posted receive
// itself (Handshake 0, the goroutine backend's ranks in one process), a
// rendezvous costs no handshake latency, and the sender still waits for
// the receive: here for what the receiver computes before posting it.
func TestRendezvousWithoutHandshake(t *testing.T) {
	n, late := 1<<20, 1e-3
	h := shared0{net1}
	run, err := Simulate(h, []Program{
		ops(Op{Kind: OpSend, Peer: 1, Bytes: n}),
		&script{compute: []float64{late}, ops: []Op{{Kind: OpRecv, Peer: 0, Bytes: n}}},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	xfer := float64(n) / net1.B
	near(t, "sender", run.Ranks[0].Finish, late+xfer)
	near(t, "receiver", run.Ranks[1].Finish, late+xfer+net1.L+net1.o)
}

// shared0 is hockney with rendezvous handshakes that cost nothing.
type shared0 struct{ hockney }

func (h shared0) Message(src, dst, n int) MessageCost {
	c := h.hockney.Message(src, dst, n)
	c.Handshake = 0
	return c
}

// TestRendezvousWaitBuffersUnmatchedSends: with Options.RendezvousWait a
// rendezvous send whose receive is not posted within the wait becomes an
// eager one (the goroutine backend queues the message then): ranks that
// all Send before they Recv go on instead of deadlocking, and a sender
// does not wait for a late receiver beyond the wait.
func TestRendezvousWaitBuffersUnmatchedSends(t *testing.T) {
	n, wait := net1.eager+1, 1e-3
	xfer := float64(n) / net1.B
	ring := func() []Program {
		return []Program{
			ops(Op{Kind: OpSend, Peer: 1, Bytes: n}, Op{Kind: OpRecv, Peer: 1, Bytes: n}),
			ops(Op{Kind: OpSend, Peer: 0, Bytes: n}, Op{Kind: OpRecv, Peer: 0, Bytes: n}),
		}
	}
	if _, err := Simulate(net1, ring(), Options{}); err == nil {
		t.Fatal("without the wait: no deadlock")
	}
	run, err := Simulate(net1, ring(), Options{RendezvousWait: wait})
	if err != nil {
		t.Fatal(err)
	}
	// Rank 0's send stops waiting first and goes eagerly; rank 1's Recv
	// takes it, and rank 1's own send then meets rank 0's posted receive.
	if f := run.Ranks[0].Finish; f < wait || f > wait+4*(xfer+net1.L+net1.o) {
		t.Errorf("rank 0 finished at %g, want about the wait, %g", f, wait)
	}
	late := 5e-3
	run, err = Simulate(net1, []Program{
		ops(Op{Kind: OpSend, Peer: 1, Bytes: n}),
		&script{compute: []float64{late}, ops: []Op{{Kind: OpRecv, Peer: 0, Bytes: n}}},
	}, Options{RendezvousWait: wait})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "sender", run.Ranks[0].Finish, net1.o+wait+xfer)
	near(t, "receiver", run.Ranks[1].Finish, late+net1.o)
}

// poller is rank 0 of TestPollingRoundRobin: it posts a receive from each
// other rank and tests them in turn, with no work between tests, until
// every one has completed, marking the clock of each success with an
// OpMark of the request's number.
type poller struct {
	peers   int
	posted  int
	done    []bool
	next    int  // the request the last Test asked about (1-based)
	testing bool // the last operation was a Test
	left    int
	steps   int
}

func (p *poller) Step(prev Result) (float64, Op, error) {
	if p.steps++; p.steps > 100 {
		return 0, Op{}, errors.New("the polls spun: 100 operations")
	}
	if p.posted < p.peers {
		p.posted++
		return 0, Op{Kind: OpIrecv, Peer: p.posted, Req: p.posted, Bytes: 1 << 16}, nil
	}
	if p.testing && !prev.Pending {
		p.testing = false
		p.done[p.next-1] = true
		p.left--
		return 0, Op{Kind: OpMark, Req: p.next, Tag: 1}, nil
	}
	if p.left == 0 {
		return 0, Op{Kind: OpFinish}, nil
	}
	for {
		p.next = p.next%p.peers + 1
		if !p.done[p.next-1] {
			break
		}
	}
	p.testing = true
	return 0, Op{Kind: OpTest, Req: p.next}, nil
}

// TestPollingRoundRobin: a rank that polls several requests in turn with
// nothing between its tests sees each complete at its message's arrival,
// in the order they arrive, without spinning; and a message whose later
// end was known first does not hide one that arrives earlier (rank 1's
// 60 KB message is delivered first, at clock 0, and ends after rank 3's 8
// bytes sent at 10 us).
func TestPollingRoundRobin(t *testing.T) {
	big := 60000
	work := []float64{0, 0, 300e-6, 10e-6}
	p := &poller{peers: 3, done: make([]bool, 3), left: 3}
	progs := []Program{p}
	for r := 1; r <= 3; r++ {
		bytes := 8
		if r == 1 {
			bytes = big
		}
		progs = append(progs, &script{compute: []float64{work[r]}, ops: []Op{{Kind: OpSend, Peer: 0, Bytes: bytes}}})
	}
	p.done = make([]bool, 3)
	run, err := Simulate(net1, progs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A receive completes one overhead after its message arrives; the
	// Test that finds it complete pays the receive overhead (as a Wait
	// after the completion does).
	noticed := func(bytes int) float64 { return net1.o + float64(bytes)/net1.B + net1.L + net1.o + net1.o }
	marks := run.Marks[0]
	var found []int
	for _, m := range marks {
		found = append(found, m.ID)
	}
	if want := []int{3, 1, 2}; !slices.Equal(found, want) {
		t.Fatalf("tests succeeded for requests %v, want %v (by arrival)", found, want)
	}
	near(t, "rank 3's message noticed at", marks[0].T, work[3]+noticed(8))
	near(t, "rank 1's message noticed at", marks[1].T, noticed(big))
	near(t, "rank 2's message noticed at", marks[2].T, work[2]+noticed(8))
	if ops := run.Ranks[0].Ops; ops > 3+3*4 {
		t.Errorf("rank 0 made %d operations: its polls spun", ops)
	}
	near(t, "rank 0's waiting and receive overheads", run.Ranks[0].Wait+run.Ranks[0].Comm, run.Ranks[0].Finish)
}

// TestPollingRankSpinsOnACore: ranks sharing two cores, one of them
// polling the others' messages in a loop of Tests, which keeps its core
// busy as it waits (a program's own loop, not a blocking MPI call): the
// two workers compute at two thirds of full speed while it polls.
func TestPollingRankSpinsOnACore(t *testing.T) {
	const work = 3e-3
	progs := []Program{&poller{peers: 2, done: make([]bool, 2), left: 2}}
	for range 2 {
		progs = append(progs, &script{compute: []float64{work}, ops: []Op{{Kind: OpSend, Peer: 0, Bytes: 8}}})
	}
	run, err := Simulate(net1, progs, Options{Sharing: &Sharing{Node: []int{0, 0, 0}, Cores: []float64{2}}})
	if err != nil {
		t.Fatal(err)
	}
	// (Less the first microseconds, while it posts its receives.)
	for r := 1; r <= 2; r++ {
		if got := run.Ranks[r].Compute; math.Abs(got-1.5*work) > 0.02*work {
			t.Errorf("worker %d computed for %g s, want about %g", r, got, 1.5*work)
		}
	}
}

// TestProgress: Options.Progress hears every ProgressEvery operations how
// many were simulated and how far virtual time got, both growing, and
// does not change the simulation.
func TestProgress(t *testing.T) {
	mk := func() []Program {
		progs := make([]Program, 64)
		for r := range progs {
			progs[r] = newHalo(r, 64, 1500, 1e-5, 1024)
		}
		return progs
	}
	plain, err := Simulate(net1, mk(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ops []int64
	var times []float64
	heard, err := Simulate(net1, mk(), Options{Progress: func(n int64, now float64) {
		ops, times = append(ops, n), append(times, now)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plain, heard) {
		t.Error("the simulation with Progress differs from the one without")
	}
	// A call may come a few operations past its multiple, so the next
	// one can fall past the end.
	if most := int(plain.Ops / ProgressEvery); len(ops) < most-1 || len(ops) > most || most < 2 {
		t.Fatalf("Progress called %d times for %d operations, want %d or one fewer (at least 1)", len(ops), plain.Ops, most)
	}
	for i := range ops {
		if ops[i] < int64(i+1)*ProgressEvery || (i > 0 && (ops[i] <= ops[i-1] || times[i] < times[i-1])) {
			t.Errorf("call %d: %d operations at %g s after %v at %v", i, ops[i], times[i], ops[:i], times[:i])
		}
		if times[i] <= 0 || times[i] > plain.Makespan {
			t.Errorf("call %d: virtual time %g outside (0, %g]", i, times[i], plain.Makespan)
		}
	}
}
