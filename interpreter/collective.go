package interpreter

import "math"

// A collective runs as its rank's part of the schedule the network chose:
// per step, post the step's receives and sends (in the collectives'
// context, tagged by the collective's sequence number and kind so that
// mismatched collectives never exchange data), wait for all, then compute.
type collective struct {
	op     Op
	steps  []Step
	i      int
	posted []*request // the current step's requests
	inStep bool       // the current step's requests are posted
}

type schedKey struct {
	kind           OpKind
	p, bytes, root int
}

type stepStatus uint8

const (
	stepDone stepStatus = iota
	stepBlocked
	stepYielded
)

func (s *sim) startCollective(r *rank, op Op) {
	k := schedKey{op.Kind, len(s.ranks), op.Bytes, op.Root}
	sched, ok := s.scheds[k]
	if !ok {
		sched = s.net.Schedule(op.Kind, len(s.ranks), op.Bytes, op.Root)
		s.scheds[k] = sched
	}
	r.collSeq++
	if op.Kind == OpBcast && r.id == op.Root && op.Send != nil {
		// The root's data, for the other ranks when their part ends
		// (which needs the root's messages, so comes after this).
		s.bcastData[r.collSeq] = &bcastData{payload: op.Send, left: len(s.ranks) - 1}
	}
	// The rank's collective state is reused from one collective to the next.
	r.collBuf = collective{op: op, steps: sched[r.id], posted: r.collBuf.posted[:0]}
	r.coll = &r.collBuf
}

// collectiveStep advances r's collective by one step.
func (s *sim) collectiveStep(r *rank) stepStatus {
	c := r.coll
	if c.i == len(c.steps) {
		r.coll = nil
		return stepDone
	}
	st := c.steps[c.i]
	if !c.inStep {
		if s.yield(r) {
			return stepYielded
		}
		c.inStep = true
		tag := r.collSeq<<5 | int(c.op.Kind)
		for _, t := range st.Recvs {
			// Any size is accepted: v-collectives are scheduled with each
			// rank's own block size, so blocks differ between ranks.
			c.posted = append(c.posted, s.postRecv(r, 1, t.Peer, tag, math.MaxInt, nil))
		}
		for _, t := range st.Sends {
			c.posted = append(c.posted, s.postSend(r, 1, t.Peer, tag, t.Bytes, nil))
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
		if c.op.Kind == OpBcast && r.id != c.op.Root {
			s.receiveBcast(r, c.op)
		}
		r.coll = nil
		r.res = Result{}
	}
	return stepDone
}

// bcastData is a Bcast root's payload until every other rank has it.
type bcastData struct {
	payload any
	left    int
}

// receiveBcast hands r the data of the Bcast it just finished.
func (s *sim) receiveBcast(r *rank, op Op) {
	b := s.bcastData[r.collSeq]
	if b == nil {
		return
	}
	if d, ok := r.prog.(DataReceiver); ok && op.Recv != nil {
		d.ReceiveData(op.Recv, b.payload)
	}
	if b.left--; b.left <= 0 {
		delete(s.bcastData, r.collSeq)
	}
}
