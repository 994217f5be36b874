package mpi

import "time"

// GoroutineRendezvousBytes is the message size from which the goroutine
// backend's blocking sends (Send, Sendrecv and the collectives' messages)
// wait for their receive to be posted and copy straight into it, as an MPI
// library's rendezvous protocol does (for up to half a millisecond; then
// they queue the message and return). Its handshake costs no message: the
// sender sees the posted receive itself. predict bench writes it as the
// eager limit of a machine it calibrates over this backend.
const GoroutineRendezvousBytes = 16 << 10

// GoroutineRendezvousWait is how long such a send waits for its receive
// before the goroutine backend queues the message and the send returns.
const GoroutineRendezvousWait = 500 * time.Microsecond

// Send sends buf to rank dest with tag. The goroutine backend buffers a
// message of less than GoroutineRendezvousBytes, so Send returns without
// waiting for the receive; a larger one waits a little for it.
func Send[T Elem](c *Comm, buf []T, dest, tag int) {
	t0 := c.start(opSend)
	c.checkRank("Send", "destination", dest, false)
	c.checkTag("Send", tag, false)
	c.b.send(bytesOf(buf), dtypeOf[T](), dest, tag)
	c.record(t0, opSend, dest, -1, len(buf)*sizeOf[T](), tag, 0)
}

// Recv receives into buf a message from source (or AnySource) with tag (or
// AnyTag). The message may be shorter than buf; Status.Count says how many
// elements arrived. A longer message is an error.
func Recv[T Elem](c *Comm, buf []T, source, tag int) Status {
	t0 := c.start(opRecv)
	c.checkRank("Recv", "source", source, true)
	c.checkTag("Recv", tag, true)
	st := c.b.recv(bytesOf(buf), dtypeOf[T](), source, tag)
	st.Count /= sizeOf[T]()
	c.record(t0, opRecv, st.Source, -1, st.Count*sizeOf[T](), st.Tag, 0)
	return st
}

// Sendrecv sends sendbuf to dest and receives into recvbuf from source, as
// one operation that cannot deadlock against a matching Sendrecv.
func Sendrecv[T Elem](c *Comm, sendbuf []T, dest, sendtag int, recvbuf []T, source, recvtag int) Status {
	t0 := c.start(opSendrecv)
	c.checkRank("Sendrecv", "destination", dest, false)
	c.checkTag("Sendrecv", sendtag, false)
	c.checkRank("Sendrecv", "source", source, true)
	c.checkTag("Sendrecv", recvtag, true)
	st := c.b.sendrecv(bytesOf(sendbuf), dest, sendtag, bytesOf(recvbuf), source, recvtag, dtypeOf[T]())
	st.Count /= sizeOf[T]()
	c.record(t0, opSendrecv, dest, st.Source, len(sendbuf)*sizeOf[T](), sendtag, 0)
	return st
}

// Request is a pending non-blocking operation.
type Request struct {
	c        *Comm
	b        *reqBackend
	op       string
	elemSize int
	id       int
	done     bool
	st       Status
}

// Isend starts sending buf to dest. buf must not be modified until the
// request completes.
func Isend[T Elem](c *Comm, buf []T, dest, tag int) *Request {
	t0 := c.start(opIsend)
	c.checkRank("Isend", "destination", dest, false)
	c.checkTag("Isend", tag, false)
	r := &Request{c: c, op: "Isend", elemSize: sizeOf[T](), id: c.nextReq()}
	r.b = c.b.isend(bytesOf(buf), dtypeOf[T](), dest, tag)
	c.record(t0, opIsend, dest, -1, len(buf)*sizeOf[T](), tag, r.id)
	return r
}

// Irecv starts receiving into buf from source (or AnySource) with tag (or
// AnyTag). buf must not be read until the request completes.
func Irecv[T Elem](c *Comm, buf []T, source, tag int) *Request {
	t0 := c.start(opIrecv)
	c.checkRank("Irecv", "source", source, true)
	c.checkTag("Irecv", tag, true)
	r := &Request{c: c, op: "Irecv", elemSize: sizeOf[T](), id: c.nextReq()}
	r.b = c.b.irecv(bytesOf(buf), dtypeOf[T](), source, tag)
	c.record(t0, opIrecv, source, -1, len(buf)*sizeOf[T](), tag, r.id)
	return r
}

// Wait blocks until the request completes and returns its status (for a
// send, Source and Tag are those of the send). Waiting again returns the
// same status.
func (r *Request) Wait() Status {
	if r.done {
		return r.st
	}
	t0 := r.c.start(opWait)
	st := r.c.b.wait(r.b)
	r.finish(st)
	r.c.record(t0, opWait, r.st.Source, -1, r.st.Count*r.elemSize, r.st.Tag, r.id)
	return r.st
}

// Test reports whether the request has completed, without blocking.
func (r *Request) Test() (Status, bool) {
	if r.done {
		return r.st, true
	}
	st, ok := r.c.b.test(r.b)
	if ok {
		r.finish(st)
	}
	return r.st, ok
}

func (r *Request) finish(st Status) {
	st.Count /= r.elemSize
	r.st, r.done = st, true
}

// Waitall blocks until every request completes and returns their statuses
// in order. Nil requests are skipped (their status is zero).
func Waitall(reqs ...*Request) []Status {
	sts := make([]Status, len(reqs))
	var c *Comm
	var pending []*reqBackend
	var idx []int
	for i, r := range reqs {
		if r == nil || r.done {
			continue
		}
		c = r.c
		pending = append(pending, r.b)
		idx = append(idx, i)
	}
	if c != nil {
		t0 := c.start(opWaitall)
		got := c.b.waitall(pending)
		bytes := 0
		for k, i := range idx {
			reqs[i].finish(got[k])
			bytes += reqs[i].st.Count * reqs[i].elemSize
		}
		c.record(t0, opWaitall, -1, -1, bytes, -1, 0)
	}
	for i, r := range reqs {
		if r != nil {
			sts[i] = r.st
		}
	}
	return sts
}
