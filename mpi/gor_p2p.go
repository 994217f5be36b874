//go:build !openmpi && !mpich

package mpi

import (
	"runtime"
	"time"
)

// reqBackend is a pending send or receive of the goroutine backend.
type reqBackend struct {
	owner    *rankState
	isRecv   bool
	ctx      int
	src, tag int // wanted source and tag (receives)
	buf      []byte
	op       string // the user-visible operation that posted it
	done     bool
	st       Status // Count in bytes
}

// rendezvousWait is how long a blocking send of a message of
// GoroutineRendezvousBytes or more waits for its receive to be posted
// before it queues the message. Queued, a large message is copied twice,
// the first time into a queued-message buffer that the first message of
// its size faults in: matmul's first Bcast of 1.28 MB took 13-18 ms at
// two ranks that way, four times the receive buffer's own page faults,
// when the receiver posted its receive a few tens of microseconds after
// the root sent. An MPI library sends such messages by rendezvous,
// straight into the receive buffer; waiting a little does the same when
// the receiver is about to post, and still buffers the message (Send
// never blocks for good) when it is not.
var rendezvousWait = GoroutineRendezvousWait // a variable for tests

// deliverLocked sends data from this rank to communicator rank dest. It
// completes the first matching posted receive or queues the message; a
// large message of a blocking send (wait) first waits up to
// rendezvousWait for its receive.
func (b *commBackend) deliverLocked(ctx int, data []byte, dest, tag int, wait bool) {
	rs := b.w.ranks[b.members[dest]]
	if r := b.takePostedLocked(rs, ctx, tag); r != nil {
		b.completeRecvLocked(r, data, b.rank, b.rs.rank, tag)
		return
	}
	// A message to this rank itself cannot have its receive posted while
	// it waits: the rank posts it after the send returns.
	if wait && len(data) >= GoroutineRendezvousBytes && rs != b.rs {
		if r := b.awaitPostedLocked(rs, ctx, tag); r != nil {
			b.completeRecvLocked(r, data, b.rank, b.rs.rank, tag)
			return
		}
	}
	msg := &message{ctx: ctx, src: b.rank, srcWorld: b.rs.rank, tag: tag}
	if len(data) >= copyUnlocked {
		b.w.mu.Unlock()
		msg.data = payloadCopy(data)
		b.w.mu.Lock()
		// A receive may have been posted meanwhile.
		if r := b.takePostedLocked(rs, ctx, tag); r != nil {
			b.completeRecvLocked(r, msg.data, b.rank, b.rs.rank, tag)
			releasePayload(msg.data)
			return
		}
	} else if len(data) > 0 {
		msg.data = payloadCopy(data)
	}
	rs.unexpected = append(rs.unexpected, msg)
}

// awaitPostedLocked polls for up to rendezvousWait, the world's lock
// released between polls, for a receive posted at rs that a message from
// this rank with ctx and tag matches, and takes it. It gives up early if
// the run fails.
func (b *commBackend) awaitPostedLocked(rs *rankState, ctx, tag int) *reqBackend {
	deadline := time.Now().Add(rendezvousWait)
	for time.Now().Before(deadline) && b.w.failure == nil {
		b.w.mu.Unlock()
		runtime.Gosched()
		b.w.mu.Lock()
		if r := b.takePostedLocked(rs, ctx, tag); r != nil {
			return r
		}
	}
	return nil
}

// recvReq is a receive of this rank into buf, not yet posted; op is the
// user-visible operation it belongs to.
func (b *commBackend) recvReq(ctx int, buf []byte, source, tag int, op string) *reqBackend {
	return &reqBackend{owner: b.rs, isRecv: true, ctx: ctx, src: source, tag: tag, buf: buf, op: op}
}

// takePostedLocked removes and returns the first receive posted at rs
// that a message from this rank with ctx and tag matches, or nil.
func (b *commBackend) takePostedLocked(rs *rankState, ctx, tag int) *reqBackend {
	for i, r := range rs.posted {
		if r.ctx == ctx && (r.src == AnySource || r.src == b.rank) && (r.tag == AnyTag || r.tag == tag) {
			rs.posted = append(rs.posted[:i], rs.posted[i+1:]...)
			return r
		}
	}
	return nil
}

// copyUnlocked is the message size from which a message is copied with the
// world's lock released: other ranks wait for the lock by spinning
// (yieldLock), and a copy of a megabyte (a block of an all-to-all) would
// keep them spinning for a hundred microseconds, on a core the copying one
// may share. The message and its receive are off the shared queues while
// it is copied, so no other rank can see them.
const copyUnlocked = 16 << 10

// completeRecvLocked copies a matched message into receive r and wakes its
// owner if that was the last request it waited for. Both are already off
// the queues.
func (b *commBackend) completeRecvLocked(r *reqBackend, data []byte, src, srcWorld, tag int) {
	w := b.w
	if len(data) > len(r.buf) {
		w.failLocked(&TruncationError{Receiver: r.owner.rank, Sender: srcWorld, Tag: tag,
			Bytes: len(data), Capacity: len(r.buf), Op: r.op})
		return
	}
	if len(data) >= copyUnlocked {
		w.mu.Unlock()
		copy(r.buf, data)
		w.mu.Lock()
	} else {
		copy(r.buf, data)
	}
	r.done = true
	r.st = Status{Source: src, Tag: tag, Count: len(data)}
	r.owner.completions.Add(1)
	if o := r.owner; o.blocked && allDone(o.waitingOn) {
		o.blocked = false
		w.blocked--
		o.cond.Signal()
	}
}

// postRecvLocked matches the first queued message or posts the receive.
func (b *commBackend) postRecvLocked(r *reqBackend) {
	rs := b.rs
	for i, m := range rs.unexpected {
		if m.ctx == r.ctx && (r.src == AnySource || r.src == m.src) && (r.tag == AnyTag || r.tag == m.tag) {
			rs.unexpected = append(rs.unexpected[:i], rs.unexpected[i+1:]...)
			b.completeRecvLocked(r, m.data, m.src, m.srcWorld, m.tag)
			releasePayload(m.data)
			return
		}
	}
	rs.posted = append(rs.posted, r)
}

func allDone(reqs []*reqBackend) bool {
	for _, r := range reqs {
		if !r.done {
			return false
		}
	}
	return true
}

// waitLocked blocks the calling rank until every request is done. It
// unwinds the rank if the run fails meanwhile (deadlock included).
func (b *commBackend) waitLocked(reqs []*reqBackend, d opDesc) {
	w, rs := b.w, b.rs
	var pollEnd time.Time
	for {
		if w.failure != nil {
			w.mu.Unlock()
			panic(errAborted)
		}
		if allDone(reqs) {
			return
		}
		// Poll (for up to pollWait in all: a Waitall sees one completion
		// after another) before parking.
		if pollEnd.IsZero() {
			pollEnd = time.Now().Add(pollWait)
		}
		if time.Now().Before(pollEnd) {
			b.pollLocked(pollEnd)
			continue
		}
		rs.blocked, rs.waitingOn, rs.waitOp = true, reqs, d
		rs.waitSite = callSite()
		w.blocked++
		w.checkDeadlockLocked()
		if w.failure == nil {
			rs.cond.Wait()
		}
		if rs.blocked { // woken by a failure, not by a completion
			rs.blocked = false
			w.blocked--
		}
		rs.waitingOn = nil
	}
}

func (b *commBackend) send(data []byte, _ dtype, dest, tag int) {
	b.w.mu.Lock()
	b.checkFailedLocked()
	b.deliverLocked(b.ctx, data, dest, tag, true)
	b.w.mu.Unlock()
}

func (b *commBackend) checkFailedLocked() {
	if b.w.failure != nil {
		b.w.mu.Unlock()
		panic(errAborted)
	}
}

func (b *commBackend) recvCtx(ctx int, buf []byte, source, tag int, d opDesc) Status {
	r := b.recvReq(ctx, buf, source, tag, d.name)
	b.w.mu.Lock()
	b.checkFailedLocked()
	b.postRecvLocked(r)
	b.waitLocked([]*reqBackend{r}, d)
	b.w.mu.Unlock()
	return r.st
}

func (b *commBackend) recv(buf []byte, _ dtype, source, tag int) Status {
	return b.recvCtx(b.ctx, buf, source, tag, opDesc{name: "Recv", peer: source, tag: tag, root: none})
}

func (b *commBackend) sendrecv(sendbuf []byte, dest, sendtag int, recvbuf []byte, source, recvtag int, _ dtype) Status {
	return b.sendrecvCtx(b.ctx, sendbuf, dest, sendtag, recvbuf, source, recvtag, opDesc{name: "Sendrecv", peer: source, tag: recvtag, root: none})
}

// sendrecvCtx sends sendbuf to dest and receives from source into
// recvbuf in context ctx, the receive posted first: a self-send matches
// it, and a message that finds its receive posted is copied once,
// straight into place, where one sent first waits in a buffer of its
// own (a collective's ring, every step).
func (b *commBackend) sendrecvCtx(ctx int, sendbuf []byte, dest, sendtag int, recvbuf []byte, source, recvtag int, d opDesc) Status {
	r := b.recvReq(ctx, recvbuf, source, recvtag, d.name)
	b.w.mu.Lock()
	b.checkFailedLocked()
	b.postRecvLocked(r)
	b.deliverLocked(ctx, sendbuf, dest, sendtag, true)
	b.waitLocked([]*reqBackend{r}, d)
	b.w.mu.Unlock()
	return r.st
}

func (b *commBackend) isend(data []byte, _ dtype, dest, tag int) *reqBackend {
	b.w.mu.Lock()
	b.checkFailedLocked()
	b.deliverLocked(b.ctx, data, dest, tag, false)
	b.w.mu.Unlock()
	// Buffered: the send buffer is free as soon as Isend returns.
	return &reqBackend{owner: b.rs, done: true, st: Status{Source: dest, Tag: tag, Count: len(data)}}
}

func (b *commBackend) irecv(buf []byte, _ dtype, source, tag int) *reqBackend {
	r := b.recvReq(b.ctx, buf, source, tag, "Irecv")
	b.w.mu.Lock()
	b.checkFailedLocked()
	b.postRecvLocked(r)
	b.w.mu.Unlock()
	return r
}

func (b *commBackend) wait(r *reqBackend) Status {
	b.w.mu.Lock()
	b.waitLocked([]*reqBackend{r}, opDesc{name: "Wait", peer: r.src, tag: r.tag, root: none})
	b.w.mu.Unlock()
	return r.st
}

func (b *commBackend) waitall(reqs []*reqBackend) []Status {
	b.w.mu.Lock()
	b.waitLocked(reqs, opDesc{name: "Waitall", peer: none, tag: none, root: none})
	b.w.mu.Unlock()
	sts := make([]Status, len(reqs))
	for i, r := range reqs {
		sts[i] = r.st
	}
	return sts
}

func (b *commBackend) test(r *reqBackend) (Status, bool) {
	b.w.mu.Lock()
	b.checkFailedLocked()
	st, done := r.st, r.done
	b.w.mu.Unlock()
	return st, done
}

// pollWait is how long a rank waiting for a message polls for it before it
// parks. A parked rank is woken on the core of the rank that sends to it,
// and runs there once the sender blocks in turn; another core, idle, may
// take longer to wake than that (tens of microseconds on a virtual
// machine), so ranks that exchange every few hundred microseconds would
// take turns on one core. Polling first keeps each on its own core, as an
// MPI library's busy-polling does; it yields between polls, so ranks that
// outnumber the cores still share them. A millisecond covers the waits of
// programs that synchronise every step (a rank late by a step's imbalance,
// or by a turn on a shared core), so that a wake-up, when one comes, costs
// a few percent of the wait; 100 us made a parked rank and its wake-up
// part of nearly every collective (docs/validation.md).
const pollWait = time.Millisecond

// pollLocked releases the world's lock and polls until the calling rank
// completes a receive (or the run fails) or the deadline passes; it
// returns with the lock held again.
func (b *commBackend) pollLocked(deadline time.Time) {
	rs := b.rs
	seen := rs.completions.Load()
	b.w.mu.Unlock()
	for i := 1; rs.completions.Load() == seen; i++ {
		if i%64 == 0 {
			if time.Now().After(deadline) {
				break
			}
			runtime.Gosched()
		}
	}
	b.w.mu.Lock()
}
