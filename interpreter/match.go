package interpreter

import "fmt"

// postSend issues a send from r at r.clock. Eager messages leave at once:
// the sender is done when the payload is injected, the payload arrives a
// latency later. Rendezvous messages announce themselves (RTS) and wait for
// the receive; see matchRendezvous.
func (s *sim) postSend(r *rank, ctx, dest, tag, n int, payload any) *request {
	c := s.net.Message(r.id, dest, n)
	q := s.newRequest()
	*q = request{owner: r, ctx: ctx, peer: dest, tag: tag, bytes: n, post: r.clock, busy: c.SendOverhead}
	r.stats.Sent++
	r.stats.Bytes += n
	s.run.Messages++
	depart := r.clock + c.SendOverhead
	m := message{ctx: ctx, src: r.id, tag: tag, bytes: n, cost: c, payload: payload}
	if c.Rendezvous {
		m.rdv, m.send = true, q
		m.arrival = depart + c.Handshake // the RTS
		if s.opts.RendezvousWait > 0 {
			s.rdvSeq++
			m.seq = s.rdvSeq
		}
	} else {
		injected := s.transfer(c.Channels, depart, c.Transfer, n)
		q.done, q.end = true, injected
		m.arrival = injected + c.Latency
	}
	dst := s.ranks[dest]
	for i, rq := range dst.posted {
		if matches(rq, &m) {
			dst.posted = append(dst.posted[:i], dst.posted[i+1:]...)
			s.deliver(rq, &m)
			return q
		}
	}
	dst.unexpected = append(dst.unexpected, m)
	if m.seq > 0 {
		s.pending = append(s.pending, pendingRdv{deadline: depart + s.opts.RendezvousWait, dst: dest, seq: m.seq})
	}
	return q
}

// expireRendezvous sends eagerly the pending rendezvous messages whose
// wait ended before t, in order (or the first still pending, when first:
// every rank is blocked), as the goroutine backend buffers a large
// message whose receive was not posted within its wait: the sender goes
// on once it has copied the payload, and the receive finds the message
// queued. It reports whether it woke a sender.
func (s *sim) expireRendezvous(t float64, first bool) bool {
	woke := false
	for len(s.pending) > 0 && (s.pending[0].deadline < t || first && !woke) {
		p := s.pending[0]
		s.pending = s.pending[1:]
		dst := s.ranks[p.dst]
		for i := range dst.unexpected {
			m := &dst.unexpected[i]
			if m.seq != p.seq || !m.rdv {
				continue
			}
			q, c := m.send, m.cost
			injected := s.transfer(c.Channels, p.deadline, c.Transfer, m.bytes)
			q.done, q.end = true, injected
			m.rdv, m.send = false, nil
			m.arrival = injected + c.Latency
			s.wake(q.owner)
			woke = true
			break
		}
	}
	return woke
}

// postRecv posts a receive of r at r.clock, matching the oldest queued
// message first. fault is the seconds of page faults the message's copy
// into the buffer takes (Op.Fault).
func (s *sim) postRecv(r *rank, ctx, source, tag, capacity int, into any, fault float64) *request {
	q := s.newRequest()
	*q = request{owner: r, recv: true, ctx: ctx, peer: source, tag: tag, bytes: capacity, post: r.clock, into: into, fault: fault}
	for i := range r.unexpected {
		if m := r.unexpected[i]; matches(q, &m) {
			r.unexpected = append(r.unexpected[:i], r.unexpected[i+1:]...)
			s.deliver(q, &m)
			return q
		}
	}
	r.posted = append(r.posted, q)
	return q
}

func matches(q *request, m *message) bool {
	return q.ctx == m.ctx && (q.peer == AnySource || q.peer == m.src) && (q.tag == AnyTag || q.tag == m.tag)
}

// deliver completes receive q with message m (and, for rendezvous, the
// sender's request), waking the ranks that wait for them.
func (s *sim) deliver(q *request, m *message) {
	if m.bytes > q.bytes {
		s.fail(q.owner, fmt.Errorf("message of %d bytes from rank %d (tag %d) does not fit the %d-byte receive buffer",
			m.bytes, m.src, m.tag, q.bytes))
		return
	}
	c := m.cost
	q.busy = c.RecvOverhead
	q.res = Result{Source: m.src, Tag: m.tag, Bytes: m.bytes}
	if m.payload != nil && q.into != nil {
		if d, ok := q.owner.prog.(DataReceiver); ok {
			d.ReceiveData(q.into, m.payload)
		}
	}
	if m.rdv {
		// CTS leaves when both the RTS has arrived and the receive is
		// posted; the payload follows the CTS; FIN is not waited for.
		// The copy into fresh memory waits for its page faults.
		cts := max(m.arrival, q.post) + c.Handshake
		injected := s.transfer(c.Channels, cts, c.Transfer, m.bytes) + q.fault
		m.send.done, m.send.end = true, injected
		q.done, q.end = true, injected+c.Latency+c.RecvOverhead
		s.wake(m.send.owner)
	} else {
		// The receiver copies out of the eager buffer, faulting as it
		// goes.
		q.busy += q.fault
		q.done, q.end = true, max(m.arrival, q.post)+c.RecvOverhead+q.fault
	}
	s.wake(q.owner)
}
