package commmodel

import (
	"container/heap"
	"fmt"
)

// SimOptions tune [Machine.Simulate].
type SimOptions struct {
	// NoContention prices every transfer as if it had its channels alone.
	NoContention bool
	// Start holds each rank's start time (all zero when nil).
	Start []float64
}

// SimResult is the outcome of replaying a schedule.
type SimResult struct {
	Finish   []float64 // each rank's completion time
	Time     float64   // the latest completion: the operation's time
	Messages int
	// MaxShare is the largest number of rank pairs seen sharing a channel.
	MaxShare int
}

// Simulate replays a schedule on the machine under a placement: each rank
// runs its steps in order, a step posting all its sends and receives at
// once and finishing when they all complete, then combining received data
// at ReduceTimePerByte. A rank sends one message at a time and receives
// one at a time (the one-port, full-duplex model behind the closed forms),
// a rendezvous message waits for its receive to be posted and pays its
// handshake, and a transfer that starts while others occupy one of its
// channels is slowed by that channel's contention model; its contention
// factor (the number of rank pairs on the channel) is fixed when it
// starts.
func (m *Machine) Simulate(s *Schedule, pl *Placement, opt SimOptions) (*SimResult, error) {
	if pl.P != s.P {
		return nil, fmt.Errorf("commmodel: Simulate: schedule of %d ranks on a placement of %d", s.P, pl.P)
	}
	sim := &simulator{m: m, s: s, pl: pl, opt: opt,
		sendPort: make([]float64, s.P), recvPort: make([]float64, s.P),
		pc: make([]int, s.P), nextSend: make([]int, s.P), nextRecv: make([]int, s.P), stepStart: make([]float64, s.P), clock: make([]float64, s.P), left: make([]int, s.P), end: make([]float64, s.P),
		sends: map[[2]int][]posted{}, recvs: map[[2]int][]posted{}, spans: map[Channel][]span{}}
	for r := range s.P {
		if opt.Start != nil {
			sim.clock[r] = opt.Start[r]
		}
		heap.Push(&sim.events, event{sim.clock[r], r})
	}
	for sim.events.Len() > 0 {
		ev := heap.Pop(&sim.events).(event)
		sim.post(ev.rank, ev.t)
	}
	res := &SimResult{Finish: sim.clock, Messages: sim.messages, MaxShare: sim.maxShare}
	for r := range s.P {
		if sim.pc[r] != len(s.Ranks[r]) {
			return nil, fmt.Errorf("commmodel: Simulate %v/%v: deadlock: rank %d stuck at step %d of %d", s.Op, s.Algorithm, r, sim.pc[r], len(s.Ranks[r]))
		}
		res.Time = max(res.Time, sim.clock[r])
	}
	return res, nil
}

type posted struct {
	t     float64
	rank  int
	bytes int
}

// span is a transfer occupying a channel, with the pair of ranks it
// connects.
type span struct {
	start, end float64
	pair       int
}

type simulator struct {
	m   *Machine
	s   *Schedule
	pl  *Placement
	opt SimOptions

	sendPort, recvPort []float64
	pc                 []int
	nextRecv           []int     // index of the next receive of the current step to offer
	nextSend           []int     // index of the next send of the current step to offer
	stepStart          []float64 // post time of the current step
	clock              []float64 // ready time of each rank's next step
	left               []int     // transfers of the current step not yet complete
	end                []float64 // latest completion in the current step
	sends, recvs       map[[2]int][]posted
	spans              map[Channel][]span
	events             eventQueue
	messages, maxShare int
}

// post starts rank r's current step at time t.
func (sim *simulator) post(r int, t float64) {
	if sim.pc[r] == len(sim.s.Ranks[r]) {
		return
	}
	st := sim.s.Ranks[r][sim.pc[r]]
	sim.left[r] = len(st.Sends) + len(st.Recvs)
	sim.end[r] = t
	if sim.left[r] == 0 {
		sim.finishStep(r)
		return
	}
	sim.nextSend[r] = 0
	sim.stepStart[r] = t
	sim.nextRecv[r] = 0
	pc := sim.pc[r]
	sim.postNextRecv(r)
	if sim.pc[r] == pc { // a step of receives only may be over already
		sim.postNextSend(r)
	}
}

// postNextRecv offers the next receive of r's step, in order as sends are.
func (sim *simulator) postNextRecv(r int) {
	st := sim.s.Ranks[r][sim.pc[r]]
	if sim.nextRecv[r] >= len(st.Recvs) {
		return
	}
	tr := st.Recvs[sim.nextRecv[r]]
	sim.nextRecv[r]++
	k := [2]int{tr.Peer, r}
	sim.recvs[k] = append(sim.recvs[k], posted{sim.stepStart[r], r, tr.Bytes})
	sim.match(k)
}

// postNextSend offers the next send of r's step for matching. A rank's
// network interface takes its sends in order, so a send is matched only
// after the one before it: this keeps a step that posts many sends (the
// linear all-to-all) from being priced in whatever order its peers happen
// to post their receives. Receives are offered in order too, which makes
// a step's transfers follow the slot order the algorithms are written in.
func (sim *simulator) postNextSend(r int) {
	st := sim.s.Ranks[r][sim.pc[r]]
	if sim.nextSend[r] >= len(st.Sends) {
		return
	}
	tr := st.Sends[sim.nextSend[r]]
	sim.nextSend[r]++
	k := [2]int{r, tr.Peer}
	sim.sends[k] = append(sim.sends[k], posted{sim.stepStart[r], r, tr.Bytes})
	sim.match(k)
}

// match prices the next message from k[0] to k[1] once both sides are posted.
func (sim *simulator) match(k [2]int) {
	for len(sim.sends[k]) > 0 && len(sim.recvs[k]) > 0 {
		snd, rcv := sim.sends[k][0], sim.recvs[k][0]
		sim.sends[k], sim.recvs[k] = sim.sends[k][1:], sim.recvs[k][1:]
		sendDone, recvDone := sim.price(k[0], k[1], snd, rcv)
		if sim.complete(k[1], recvDone) {
			sim.postNextRecv(k[1])
		}
		if sim.complete(k[0], sendDone) {
			sim.postNextSend(k[0])
		}
	}
}

func (sim *simulator) price(src, dst int, snd, rcv posted) (sendDone, recvDone float64) {
	m := sim.m
	n := snd.bytes
	c := m.Message(sim.pl, src, dst, n)
	sim.messages++
	start := max(snd.t+c.SendOverhead, sim.sendPort[src], sim.recvPort[dst])
	pre, post := 0.0, 0.0
	if c.Rendezvous {
		start = max(start, rcv.t)
		h := float64(c.Handshakes)
		pre = min(h, 2) * c.Latency // RTS, CTS
		post = max(h-2, 0) * c.Latency
	}
	lat, tr := c.Latency, c.Transfer
	if !sim.opt.NoContention && len(c.Channels) > 0 {
		pair := min(src, dst)*sim.s.P + max(src, dst)
		cf, ch := 1, c.Channels[0]
		for _, x := range c.Channels {
			if n := sim.share(x, start+pre, pair); n > cf {
				cf, ch = n, x
			}
		}
		sim.maxShare = max(sim.maxShare, cf)
		lat, tr = m.Contended(c, ch, cf, n)
		for _, x := range c.Channels {
			sim.spans[x] = append(sim.spans[x], span{start + pre, start + pre + lat + tr, pair})
		}
	}
	arrive := start + pre + lat + tr
	sim.sendPort[src] = arrive
	sim.recvPort[dst] = arrive
	return arrive + post, max(arrive, rcv.t) + c.RecvOverhead
}

// share counts the pairs of ranks communicating over ch at time t, the
// new transfer's pair included. A pair exchanging in both directions
// counts once: the contention tables' baseline t(m,1) is one pair
// exchanging (SEEDS.md 4 measured Isend/Irecv loops).
func (sim *simulator) share(ch Channel, t float64, pair int) int {
	pairs := map[int]bool{pair: true}
	live := sim.spans[ch][:0]
	for _, sp := range sim.spans[ch] {
		if sp.end <= t-1e-3 { // long finished: forget (spans arrive roughly in time order)
			continue
		}
		live = append(live, sp)
		if sp.start <= t && t < sp.end {
			pairs[sp.pair] = true
		}
	}
	sim.spans[ch] = live
	return len(pairs)
}

// complete records a finished transfer of r's step and reports whether
// the step is still running.
func (sim *simulator) complete(r int, t float64) bool {
	sim.end[r] = max(sim.end[r], t)
	sim.left[r]--
	if sim.left[r] == 0 {
		sim.finishStep(r)
		return false
	}
	return true
}

func (sim *simulator) finishStep(r int) {
	st := sim.s.Ranks[r][sim.pc[r]]
	sim.clock[r] = sim.end[r] + float64(st.ReduceBytes)*sim.m.ReduceTimePerByte
	sim.pc[r]++
	if sim.pc[r] < len(sim.s.Ranks[r]) {
		heap.Push(&sim.events, event{sim.clock[r], r})
	}
}

type event struct {
	t    float64
	rank int
}

// eventQueue orders events by time, then rank, so runs are deterministic.
type eventQueue []event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].t != q[j].t {
		return q[i].t < q[j].t
	}
	return q[i].rank < q[j].rank
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(event)) }
func (q *eventQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// Repeat returns a schedule running s k times back to back on every rank,
// the naive benchmark loop that MPIPerf warns about.
func Repeat(s *Schedule, k int) *Schedule {
	out := *s
	out.Ranks = make([][]Step, s.P)
	for r, st := range s.Ranks {
		for range k {
			out.Ranks[r] = append(out.Ranks[r], st...)
		}
	}
	return &out
}
