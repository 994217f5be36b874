package interpreter

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

type rankState uint8

const (
	ready rankState = iota
	blocked
	finished
)

// rank is the simulator's state of one rank.
type rank struct {
	id    int
	prog  Program
	clock float64
	state rankState
	res   Result // what the last completed operation tells the program

	pending    Op // the next operation, computed but not yet executed
	hasPending bool
	cur        Op // the operation in progress (for timelines and reports)
	curStart   float64

	reqs map[int]*request // the program's pending non-blocking requests
	// polled are the requests the rank's OpTests found unfinished at
	// clock pollAt; polling is set while the rank waits for one of them
	// (or, once ready, is still to be told whether pollReq completed).
	polled    []int
	pollAt    float64
	pollReq   int
	polling   bool
	waitSet   []*request
	waitBuf   [2]*request // backing store of waitSet for blocking calls
	blockedAt float64

	coll     *collective
	collBuf  collective  // backing store of coll
	collSeq  int         // collectives on the world so far
	groupSeq map[int]int // collectives so far per communicator Split made

	unexpected []message  // arrived (eager) or announced (rendezvous), unmatched
	posted     []*request // posted receives, unmatched

	rng *rand.Rand // Options.Noise's draws for this rank, once needed

	soloist Soloist  // prog, if it can price compute alone on its node
	solo    bool     // soloist prices alone too (Options.Node)
	tail    soloTail // its compute since its last MPI operation
	// primed is its first Step, taken before the simulation starts
	// (primeHeads), for advance to use.
	primed *primedStep

	stats            RankStats
	computeAtFirstOp float64 // stats.Compute when the rank started its first MPI operation
	segs             []Segment
	marks            []Mark

	// With Sharing: full-speed compute still to do before pending, and
	// the stretches the rank computed (contiguous ones merged).
	computeLeft  float64
	quantum      float64 // of the current stretch
	computeStart float64 // when the current stretch began
	computing    []span
	// spinning are the stretches the rank waited polling its requests
	// (testUnfinished): a program's own Test loop keeps its core busy.
	spinning []span
}

// request is a pending send or receive.
type request struct {
	owner *rank
	recv  bool
	ctx   int // 0: user messages; 1: collectives
	peer  int // receives: wanted source (or AnySource); sends: destination
	tag   int
	bytes int // sends: payload; receives: capacity
	post  float64
	busy  float64 // CPU overhead the owner pays in MPI for this request
	fault float64 // receives: page faults of the copy into the buffer (Op.Fault)
	done  bool
	end   float64 // completion time, once done
	res   Result
	into  any // receives: Op.Recv
}

// message is a send that reached its destination's queue before a matching
// receive was posted.
type message struct {
	ctx, src, tag, bytes int
	arrival              float64 // eager: payload arrival; rendezvous: RTS arrival
	rdv                  bool
	send                 *request // rendezvous: the sender's request, completed on match
	seq                  uint64   // rendezvous with Options.RendezvousWait: its pending entry's
	cost                 MessageCost
	payload              any // Op.Send
}

type sim struct {
	bcastData map[collKey]*bcastData
	gathers   map[collKey]*gathered
	splits    map[collKey]*splitState
	groups    int // communicators made so far
	net       Network
	opts      Options
	ranks     []*rank
	ready     readyQueue
	next      *rank // the rank to run next, taken from ready by yield
	now       float64
	chans     map[int]*channelLoad // channels numbered outside [0, denseChannels)
	chanList  []*channelLoad       // channels by number below denseChannels
	scheds    map[schedKey][][]Step
	run       *Run
	err       error
	slab      []request  // requests are allocated in blocks
	free      []*request // completed requests, for reuse
	sharing   *sharedCompute
	shared    [][]*rank // Options.Node: the ranks of each node of two or more, in node order
	// pending are the rendezvous sends queued unmatched, by the time they
	// stop waiting (Options.RendezvousWait); rdvSeq numbers them.
	pending []pendingRdv
	rdvSeq  uint64
}

// pendingRdv is a rendezvous send waiting for its receive until deadline:
// message seq in rank dst's unexpected queue.
type pendingRdv struct {
	deadline float64
	dst      int
	seq      uint64
}

// newRequest returns a zero request: the last one freed, whose memory is
// still in the cache, or a new one.
func (s *sim) newRequest() *request {
	if n := len(s.free); n > 0 {
		q := s.free[n-1]
		s.free = s.free[:n-1]
		*q = request{}
		return q
	}
	if len(s.slab) == 0 {
		s.slab = make([]request, 256)
	}
	q := &s.slab[0]
	s.slab = s.slab[1:]
	return q
}

// Simulate runs the programs, one per rank, to completion in virtual time.
// It fails with a *DeadlockError if every live rank blocks, or a
// *RankError if a program or one of its operations fails.
func Simulate(net Network, progs []Program, opts Options) (*Run, error) {
	s := &sim{net: net, opts: opts, bcastData: map[collKey]*bcastData{}, gathers: map[collKey]*gathered{}, splits: map[collKey]*splitState{}, chans: map[int]*channelLoad{}, scheds: map[schedKey][][]Step{},
		run: &Run{Ranks: make([]RankStats, len(progs))}}
	for i, p := range progs {
		r := &rank{id: i, prog: p, reqs: map[int]*request{}}
		r.soloist, _ = p.(Soloist)
		s.ranks = append(s.ranks, r)
		s.ready.push(r)
	}
	if opts.Sharing != nil {
		if err := opts.Sharing.check(len(progs)); err != nil {
			return nil, err
		}
		s.sharing = newSharedCompute(opts.Sharing, s.ranks)
	}
	if opts.Node != nil {
		if err := s.startSolo(); err != nil {
			return nil, err
		}
		s.primeHeads()
	}
	nextProgress := int64(ProgressEvery)
	for s.err == nil {
		if s.run.Ops >= nextProgress && opts.Progress != nil {
			opts.Progress(s.run.Ops, s.now)
			nextProgress = s.run.Ops + ProgressEvery
		}
		// A rank that yields to an earlier one hands that one over in
		// s.next, saving a push and a pop of the queue.
		r := s.next
		s.next = nil
		if r == nil {
			if s.ready.Len() == 0 {
				// Every live rank is blocked: the rendezvous send that
				// stops waiting first may release them.
				if len(s.pending) > 0 {
					s.expireRendezvous(math.Inf(-1), true)
					continue
				}
				break
			}
			r = s.ready.pop()
		}
		if len(s.pending) > 0 && s.pending[0].deadline < r.clock && s.expireRendezvous(r.clock, false) {
			// A sender woke before r's time: it goes first.
			s.ready.push(r)
			continue
		}
		s.now = r.clock
		s.advance(r)
	}
	if s.err != nil {
		return nil, s.err
	}
	if err := s.deadlock(); err != nil {
		return nil, err
	}
	if opts.Node != nil {
		s.endSolo()
	}
	for i, r := range s.ranks {
		r.stats.Finish = r.clock
		s.run.Ranks[i] = r.stats
		s.run.Makespan = max(s.run.Makespan, r.clock)
		s.run.Marks = append(s.run.Marks, r.marks)
		if opts.Timeline {
			s.run.Timelines = append(s.run.Timelines, r.segs)
		}
	}
	if n, ok := net.(Noter); ok {
		s.run.Notes = n.Notes()
	}
	return s.run, nil
}

// advance runs r until it blocks, finishes, or would run ahead of another
// ready rank (then it goes back to the queue, keeping the global order of
// operations by virtual time).
func (s *sim) advance(r *rank) {
	if r.polling {
		s.answerPoll(r)
	}
	for s.err == nil {
		if r.coll != nil {
			switch s.collectiveStep(r) {
			case stepBlocked, stepYielded:
				return
			}
			continue
		}
		if !r.hasPending {
			compute, op, err := r.step()
			if err != nil {
				s.err = &RankError{Rank: r.id, Err: err}
				return
			}
			if compute < 0 {
				s.err = &RankError{Rank: r.id, Site: op.Site, Err: fmt.Errorf("negative compute time %g", compute)}
				return
			}
			r.stepped(compute)
			if ls := s.opts.Lockstep; ls != nil && r.betweenOps(ls.Last) {
				compute *= ls.Factor
			}
			if compute > 0 && s.opts.Noise != nil {
				if r.rng == nil {
					r.rng = rand.New(rand.NewPCG(s.opts.NoiseSeed, uint64(r.id)))
				}
				compute = s.opts.Noise(compute, r.rng)
			}
			r.pending, r.hasPending = op, true
			switch {
			case compute > 0 && s.sharing != nil:
				s.startCompute(r, compute)
			case compute > 0:
				s.segment(r, Compute, r.clock, r.clock+compute, op)
				r.clock += compute
				r.stats.Compute += compute
			}
			if s.yield(r) {
				return
			}
		}
		for r.computeLeft > 0 {
			s.computePiece(r)
			if s.yield(r) {
				return
			}
		}
		op := r.pending
		r.hasPending = false
		r.res = Result{}
		if !s.exec(r, op) {
			return
		}
	}
}

// betweenOps says whether r is between its first and its last MPI
// operation, last being each rank's operations in an earlier simulation
// of the same configuration (Lockstep.Last, Sharing.Last).
func (r *rank) betweenOps(last []int) bool {
	return r.stats.Ops >= 1 && r.id < len(last) && r.stats.Ops < last[r.id]
}

// yield puts r back in the queue if another ready rank is earlier, and
// makes the earliest the next to run.
func (s *sim) yield(r *rank) bool {
	if len(s.pending) > 0 && s.pending[0].deadline < r.clock {
		// Rendezvous sends that stopped waiting before r's time go on
		// (and may run before r).
		s.expireRendezvous(r.clock, false)
	}
	if s.ready.earlier(r) {
		s.next = s.ready.pushPop(r)
		return true
	}
	return false
}

// exec starts op on r. It returns false if r blocked or finished.
func (s *sim) exec(r *rank, op Op) bool {
	r.cur, r.curStart = op, r.clock
	if op.Kind != OpFinish && op.Kind != OpMark {
		s.run.Ops++
		r.stats.Ops++
		if r.stats.Ops == 1 {
			r.computeAtFirstOp = r.stats.Compute
		}
		r.stats.Between = r.stats.Compute - r.computeAtFirstOp
		if op.Kind == OpAlltoall {
			s.run.AllToAll++
		}
	}
	switch op.Kind {
	case OpMark:
		r.marks = append(r.marks, Mark{ID: op.Req, Begin: op.Tag == 1, T: r.clock})
		return true
	case OpFinish:
		if len(r.reqs) > 0 {
			s.fail(r, fmt.Errorf("finished with %d requests never waited for", len(r.reqs)))
			return false
		}
		r.state = finished
		return false
	case OpSend:
		if !s.checkPeer(r, op.Peer, false) {
			return false
		}
		return s.complete(r, append(r.waitBuf[:0], s.postSend(r, userCtx(op.Group), op.Peer, op.Tag, op.Bytes, op.Send)))
	case OpIsend:
		if !s.checkPeer(r, op.Peer, false) || !s.addReq(r, op.Req, s.postSend(r, userCtx(op.Group), op.Peer, op.Tag, op.Bytes, op.Send)) {
			return false
		}
		return s.nonBlocking(r, r.reqs[op.Req])
	case OpRecv:
		if !s.checkPeer(r, op.Peer, true) {
			return false
		}
		return s.complete(r, append(r.waitBuf[:0], s.postRecv(r, userCtx(op.Group), op.Peer, op.Tag, op.Bytes, op.Recv, op.Fault)))
	case OpIrecv:
		if !s.checkPeer(r, op.Peer, true) || !s.addReq(r, op.Req, s.postRecv(r, userCtx(op.Group), op.Peer, op.Tag, op.Bytes, op.Recv, op.Fault)) {
			return false
		}
		return s.nonBlocking(r, r.reqs[op.Req])
	case OpSendrecv:
		if !s.checkPeer(r, op.RecvPeer, true) || !s.checkPeer(r, op.Peer, false) {
			return false
		}
		rq := s.postRecv(r, userCtx(op.Group), op.RecvPeer, op.RecvTag, op.RecvBytes, op.Recv, op.Fault)
		sq := s.postSend(r, userCtx(op.Group), op.Peer, op.Tag, op.Bytes, op.Send)
		return s.complete(r, append(r.waitBuf[:0], rq, sq))
	case OpWait, OpTest:
		q, ok := r.reqs[op.Req]
		if !ok {
			what := "wait on"
			if op.Kind == OpTest {
				what = "test of"
			}
			s.fail(r, fmt.Errorf("%s request %d, which is not pending", what, op.Req))
			return false
		}
		if op.Kind == OpTest {
			if !(q.done && q.end <= r.clock) {
				return s.testUnfinished(r, op.Req)
			}
			r.polled = r.polled[:0]
		}
		delete(r.reqs, op.Req)
		return s.complete(r, append(r.waitBuf[:0], q))
	case OpWaitall:
		ids := op.Reqs
		if op.AllPending {
			ids = slices.Sorted(maps.Keys(r.reqs))
		}
		qs := make([]*request, 0, len(ids))
		for _, id := range ids {
			q, ok := r.reqs[id]
			if !ok {
				s.fail(r, fmt.Errorf("waitall on request %d, which is not pending", id))
				return false
			}
			delete(r.reqs, id)
			qs = append(qs, q)
		}
		return s.complete(r, qs)
	}
	if op.Kind.IsCollective() {
		if op.Kind.rooted() && !s.checkPeer(r, op.Root, false) {
			return false
		}
		s.startCollective(r, op)
		return true
	}
	s.fail(r, fmt.Errorf("unknown operation %v", op.Kind))
	return false
}

// testUnfinished answers an OpTest of request id, unfinished at r's
// clock. The first time at this clock the rank goes on (Pending). Tested
// again at the same clock, the program has come back round the requests
// it polls with nothing between: nothing it can see changes before one of
// them completes, so r waits for the first to complete and is then told
// whether id did. It returns false if r waits.
func (s *sim) testUnfinished(r *rank, id int) bool {
	if r.pollAt != r.clock {
		r.polled = r.polled[:0]
		r.pollAt = r.clock
	}
	for _, p := range r.polled {
		if p == id {
			r.state, r.blockedAt, r.pollReq, r.polling = blocked, r.clock, id, true
			s.wake(r) // one may have completed already, at a later time
			return false
		}
	}
	r.polled = append(r.polled, id)
	r.res = Result{Pending: true}
	return true
}

// firstPolled is the earliest end of r's polled requests that are done.
func (r *rank) firstPolled() (float64, bool) {
	end, found := 0.0, false
	for _, id := range r.polled {
		if q := r.reqs[id]; q != nil && q.done && (!found || q.end < end) {
			end, found = q.end, true
		}
	}
	return max(end, r.blockedAt), found
}

// wakePolling readies r, waiting for any of its polled requests, at the
// earliest end of those done, or moves it earlier in the ready queue if
// another completed before the one it was readied for.
func (s *sim) wakePolling(r *rank) {
	end, ok := r.firstPolled()
	switch {
	case !ok:
	case r.state == blocked:
		r.state, r.clock = ready, end
		s.ready.push(r)
	case r.state == ready && end < r.clock:
		r.clock = end
		s.ready.moveUp(r)
	}
}

// answerPoll tells a rank that waited in testUnfinished whether its
// request completed by now (r.clock, the first end among those it polls:
// every rank that could complete one earlier has run).
func (s *sim) answerPoll(r *rank) {
	r.polling = false
	if waited := r.clock - r.blockedAt; waited > 0 {
		s.segment(r, Wait, r.blockedAt, r.clock, r.cur)
		r.stats.Wait += waited
		if s.sharing != nil {
			r.spinning = append(r.spinning, span{r.blockedAt, r.clock})
		}
	}
	r.polled, r.pollAt = append(r.polled[:0], r.pollReq), r.clock
	q := r.reqs[r.pollReq]
	if q.done && q.end <= r.clock {
		r.polled = r.polled[:0]
		delete(r.reqs, r.pollReq)
		s.finishWait(r, append(r.waitBuf[:0], q))
		return
	}
	r.res = Result{Pending: true}
}

func (s *sim) fail(r *rank, err error) {
	if s.err == nil {
		s.err = &RankError{Rank: r.id, Site: r.cur.Site, Err: err}
	}
}

func (s *sim) checkPeer(r *rank, p int, wildcard bool) bool {
	if (wildcard && p == AnySource) || (p >= 0 && p < len(s.ranks)) {
		return true
	}
	s.fail(r, fmt.Errorf("%v: rank %d out of range [0,%d)", r.cur.Kind, p, len(s.ranks)))
	return false
}

func (s *sim) addReq(r *rank, id int, q *request) bool {
	if _, dup := r.reqs[id]; dup {
		s.fail(r, fmt.Errorf("request %d is already pending", id))
		return false
	}
	r.reqs[id] = q
	return true
}

// nonBlocking charges the posting overhead of an Isend/Irecv.
func (s *sim) nonBlocking(r *rank, q *request) bool {
	if !q.recv && q.busy > 0 {
		s.segment(r, Comm, r.clock, r.clock+q.busy, r.cur)
		r.clock += q.busy
		r.stats.Comm += q.busy
		q.busy = 0 // paid now, not again at Wait
	}
	return true
}

// complete finishes a blocking operation on qs now if they are all done, or
// blocks r until they are. It returns false if r blocked.
func (s *sim) complete(r *rank, qs []*request) bool {
	if allDone(qs) {
		s.finishWait(r, qs)
		return true
	}
	r.state, r.waitSet, r.blockedAt = blocked, qs, r.clock
	return false
}

// finishWait advances r past the completion of qs. The receive overheads
// are CPU time the rank pays even when the data arrived long before the
// wait; the rest of the span is waiting.
func (s *sim) finishWait(r *rank, qs []*request) {
	latest, busy := r.clock, 0.0
	for _, q := range qs {
		latest = max(latest, q.end)
		busy += q.busy
		if q.recv {
			r.res = q.res
		}
	}
	end := max(latest, r.clock+busy)
	// The wait ends exactly where the busy part starts, so that rounding
	// never makes the two segments overlap.
	waitEnd := max(r.clock, end-busy)
	if waited := waitEnd - r.clock; waited > 0 {
		s.segment(r, Wait, r.clock, waitEnd, r.cur)
		r.stats.Wait += waited
	}
	if busy > 0 {
		s.segment(r, Comm, waitEnd, end, r.cur)
		r.stats.Comm += busy
	}
	r.clock = end
	r.waitSet = nil
	// Nothing refers to a completed request any more: a receive left the
	// posted queue when it matched, a rendezvous send left the receiver's
	// unexpected queue, and waited requests left r.reqs.
	s.free = append(s.free, qs...)
}

// wake is called when a request of a blocked rank completes.
func (s *sim) wake(r *rank) {
	if r.polling {
		s.wakePolling(r)
		return
	}
	if r.state != blocked || !allDone(r.waitSet) {
		return
	}
	r.state = ready
	s.finishWait(r, r.waitSet)
	s.ready.push(r)
}

func allDone(qs []*request) bool {
	for _, q := range qs {
		if !q.done {
			return false
		}
	}
	return true
}

func (s *sim) segment(r *rank, kind SegmentKind, start, end float64, op Op) {
	if s.opts.Timeline && end > start {
		site := op.Site
		if kind == Compute {
			site = op.Region
		}
		seg := Segment{Kind: kind, Start: start, End: end, Op: op.Kind, Site: site}
		if kind != Compute {
			seg.Group = groupID(op.Group)
		}
		r.segs = append(r.segs, seg)
	}
}

// guesser is a program that can say which branches it decided by
// profiled frequencies (the SSA ranks).
type guesser interface{ guessedNote() string }

// deadlock reports the ranks still blocked once nothing can run.
func (s *sim) deadlock() error {
	d := &DeadlockError{}
	for _, r := range s.ranks {
		switch r.state {
		case blocked:
			d.Blocked = append(d.Blocked, BlockedRank{Rank: r.id, Op: describe(r.cur, r.coll != nil), Site: r.cur.Site, Since: r.blockedAt,
				Send: r.coll == nil && r.cur.Kind == OpSend})
		case finished:
			d.Finished++
		}
		if g, ok := r.prog.(guesser); ok && d.Guessed == "" {
			d.Guessed = g.guessedNote()
		}
	}
	if len(d.Blocked) == 0 {
		return nil
	}
	sort.Slice(d.Blocked, func(i, j int) bool { return d.Blocked[i].Rank < d.Blocked[j].Rank })
	return d
}

func describe(op Op, inCollective bool) string {
	s := describeOp(op, inCollective)
	if op.Group != nil {
		s += " on " + op.Group.String()
	}
	return s
}

func describeOp(op Op, inCollective bool) string {
	switch {
	case inCollective || op.Kind.IsCollective():
		if op.Kind.rooted() {
			return fmt.Sprintf("%v(root %d)", op.Kind, op.Root)
		}
		return op.Kind.String() + "()"
	case op.Kind == OpRecv || op.Kind == OpSendrecv:
		peer, tag := op.Peer, op.Tag
		if op.Kind == OpSendrecv {
			peer, tag = op.RecvPeer, op.RecvTag
		}
		return fmt.Sprintf("%v(source %s, tag %s)", op.Kind, wild(peer, "any"), wild(tag, "any"))
	case op.Kind == OpSend:
		return fmt.Sprintf("Send(dest %d, tag %d, %d bytes)", op.Peer, op.Tag, op.Bytes)
	}
	return op.Kind.String()
}

func wild(v int, name string) string {
	if v < 0 {
		return name
	}
	return fmt.Sprint(v)
}

func (k OpKind) rooted() bool {
	return k == OpBcast || k == OpReduce || k == OpGather || k == OpScatter
}
