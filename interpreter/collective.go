package interpreter

import (
	"fmt"
	"math"
)

// A collective runs as its rank's part of the schedule the network chose:
// per step, post the step's receives and sends (in the collectives'
// context, tagged by the collective's sequence number and kind so that
// mismatched collectives never exchange data), wait for all, then compute.
type collective struct {
	op     Op
	seq    int // the collective's number on its communicator
	steps  []Step
	i      int
	posted []*request // the current step's requests
	inStep bool       // the current step's requests are posted
	// faultPerByte shares op.Fault among the rank's receives by their
	// bytes.
	faultPerByte float64
	ownFault     float64 // op.Fault of a rank that receives nothing
}

type schedKey struct {
	kind                 OpKind
	p, bytes, elem, root int
}

type stepStatus uint8

const (
	stepDone stepStatus = iota
	stepBlocked
	stepYielded
)

func (s *sim) startCollective(r *rank, op Op) {
	n, me, root := len(s.ranks), r.id, op.Root
	if g := op.Group; g != nil {
		var member bool
		if me, member = g.index[r.id]; !member {
			s.fail(r, fmt.Errorf("%v on %v, of which rank %d is not a member", op.Kind, g, r.id))
			return
		}
		n = len(g.Members)
		if op.Kind.rooted() {
			var ok bool
			if root, ok = g.index[op.Root]; !ok {
				s.fail(r, fmt.Errorf("%v: root (world rank %d) is not in the communicator", op.Kind, op.Root))
				return
			}
		}
	}
	kind, bytes := op.Kind, op.Bytes
	if kind == OpSplit {
		kind, bytes = OpAllgather, splitBytes
	}
	k := schedKey{kind, n, bytes, op.Elem, root}
	sched, ok := s.scheds[k]
	if !ok {
		sched = s.net.Schedule(kind, n, bytes, op.Elem, root)
		s.scheds[k] = sched
	}
	seq := r.nextSeq(op.Group)
	key := collKey{groupID(op.Group), seq}
	if op.Kind == OpBcast && r.id == op.Root && op.Send != nil {
		// The root's data, for the other ranks when their part ends
		// (which needs the root's messages, so comes after this).
		s.bcastData[key] = &bcastData{payload: op.Send, left: n - 1}
	}
	if op.Kind == OpSplit {
		s.joinSplit(key, n, me, op)
	}
	if carriesContributions(op.Kind) {
		s.contribute(key, n, me, op.Send)
	}
	// The rank's collective state is reused from one collective to the next.
	r.collBuf = collective{op: op, seq: seq, steps: sched[me], posted: r.collBuf.posted[:0]}
	if op.Fault > 0 {
		if n := receivedBytes(sched[me]); n > 0 {
			r.collBuf.faultPerByte = op.Fault / float64(n)
		} else {
			// The rank copies its own block (a Scatter's root, one
			// rank alone): its faults are its own MPI time.
			r.collBuf.ownFault = op.Fault
		}
	}
	r.coll = &r.collBuf
}

// receivedBytes is what a rank's part of a collective receives.
func receivedBytes(steps []Step) int {
	n := 0
	for _, st := range steps {
		for _, t := range st.Recvs {
			n += t.Bytes
		}
	}
	return n
}

// nextSeq numbers r's collectives on g: the members of a communicator call
// its collectives in the same order, whatever they call on others.
func (r *rank) nextSeq(g *Group) int {
	if g == nil {
		r.collSeq++
		return r.collSeq
	}
	if r.groupSeq == nil {
		r.groupSeq = map[int]int{}
	}
	r.groupSeq[g.ID]++
	return r.groupSeq[g.ID]
}

// collectiveStep advances r's collective by one step.
func (s *sim) collectiveStep(r *rank) stepStatus {
	c := r.coll
	if c.i == len(c.steps) {
		// A collective with nothing to exchange (one rank).
		return s.finishCollective(r, c)
	}
	st := c.steps[c.i]
	if !c.inStep {
		if s.yield(r) {
			return stepYielded
		}
		c.inStep = true
		tag := c.seq<<5 | int(c.op.Kind)
		g, ctx := c.op.Group, collCtx(c.op.Group)
		for _, t := range st.Recvs {
			// Any size is accepted: v-collectives are scheduled with each
			// rank's own block size, so blocks differ between ranks.
			c.posted = append(c.posted, s.postRecv(r, ctx, world(g, t.Peer), tag, math.MaxInt, nil, c.faultPerByte*float64(t.Bytes)))
		}
		for _, t := range st.Sends {
			c.posted = append(c.posted, s.postSend(r, ctx, world(g, t.Peer), tag, t.Bytes, nil))
		}
		if !s.complete(r, c.posted) {
			return stepBlocked
		}
	}
	// Resumed (or completed at once): the step's messages are done.
	if st.Compute > 0 {
		s.segment(r, Comm, r.clock, r.clock+st.Compute, c.op)
		r.clock += st.Compute
		r.stats.Comm += st.Compute
	}
	clear(c.posted)
	c.posted, c.inStep = c.posted[:0], false
	c.i++
	if c.i == len(c.steps) {
		return s.finishCollective(r, c)
	}
	return stepDone
}

// finishCollective ends r's part of collective c.
func (s *sim) finishCollective(r *rank, c *collective) stepStatus {
	if c.ownFault > 0 {
		s.segment(r, Comm, r.clock, r.clock+c.ownFault, c.op)
		r.clock += c.ownFault
		r.stats.Comm += c.ownFault
	}
	if c.op.Kind == OpBcast && r.id != c.op.Root {
		s.receiveBcast(r, c)
	}
	if carriesContributions(c.op.Kind) {
		s.receiveContributions(r, c)
	}
	r.coll = nil
	r.res = Result{}
	if c.op.Kind == OpSplit {
		g, err := s.finishSplit(r, c)
		if err != nil {
			s.fail(r, err)
			return stepBlocked
		}
		r.res.Group = g
	}
	return stepDone
}

// bcastData is a Bcast root's payload until every other rank has it.
type bcastData struct {
	payload any
	left    int
}

// receiveBcast hands r the data of the Bcast c it just finished.
func (s *sim) receiveBcast(r *rank, c *collective) {
	k := collKey{groupID(c.op.Group), c.seq}
	b := s.bcastData[k]
	if b == nil {
		return
	}
	if d, ok := r.prog.(DataReceiver); ok && c.op.Recv != nil {
		d.ReceiveData(c.op.Recv, b.payload)
	}
	if b.left--; b.left <= 0 {
		delete(s.bcastData, k)
	}
}

// world is the world rank of rank i of g.
func world(g *Group, i int) int {
	if g == nil {
		return i
	}
	return g.Members[i]
}
