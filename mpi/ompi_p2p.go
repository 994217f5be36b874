//go:build openmpi || mpich

package mpi

// #include "ompi_helpers.h"
import "C"

import "runtime"

// reqBackend is a pending MPI_Isend or MPI_Irecv. Its buffer is pinned until
// the request completes, since MPI keeps the address past the cgo call.
type reqBackend struct {
	h        C.int // index into the C request table
	b        *commBackend
	isRecv   bool
	self     bool // a buffered send to the calling rank (see sendSelf)
	op       string
	peer     int // destination (sends) or wanted source (receives)
	tag      int
	capacity int // receive buffer bytes; send: message bytes
	pin      runtime.Pinner
	done     bool
	st       Status // Count in bytes
}

type cstatus [C.PP_ST_LEN]C.int

// status converts an MPI status, turning a truncation into a
// *TruncationError that names both world ranks.
func (b *commBackend) status(op string, capacity int, rc C.int, st *cstatus) Status {
	s := Status{Source: int(st[C.PP_ST_SOURCE]), Tag: int(st[C.PP_ST_TAG]), Count: int(st[C.PP_ST_BYTES])}
	if rc != 0 && C.pp_is_truncate(rc) != 0 {
		bytes := s.Count // Open MPI: the message's size; MPICH: what fitted
		if bytes <= capacity {
			bytes = -1
		}
		b.fail(&TruncationError{Receiver: b.worldRank, Sender: int(C.pp_world_rank(b.h, C.int(s.Source))),
			Tag: s.Tag, Bytes: bytes, Capacity: capacity, Op: op, Site: callSite()})
	}
	b.check(op, rc)
	return s
}

func (b *commBackend) send(data []byte, dt dtype, dest, tag int) {
	defer watchCall("Send", dest, none, tag)()
	if dest == b.rank {
		b.sendSelf(data, dt, tag)
		return
	}
	rc := C.pp_send(ptr(data), b.count("Send", len(data), elemSize(dt)), C.int(dt), C.int(dest), C.int(tag), b.h)
	b.check("Send", rc)
}

// sendSelf buffers a message to the calling rank itself: a blocking
// MPI_Send to self may wait for a receive that only this rank can post
// (MPICH does, and Open MPI above its eager limit), so it becomes an
// MPI_Isend of a copy that completes when the receive comes.
func (b *commBackend) sendSelf(data []byte, dt dtype, tag int) {
	for r := range b.run.pending {
		if r.self {
			b.test(r)
		}
	}
	buf := alignedBytes(len(data))
	copy(buf, data)
	r := b.isend(buf, dt, b.rank, tag)
	r.self, r.op = true, "Send"
}

func (b *commBackend) recv(buf []byte, dt dtype, source, tag int) Status {
	defer watchCall("Recv", source, none, tag)()
	var st cstatus
	rc := C.pp_recv(ptr(buf), b.count("Recv", len(buf), elemSize(dt)), C.int(dt), C.int(source), C.int(tag), b.h, &st[0])
	return b.status("Recv", len(buf), rc, &st)
}

func (b *commBackend) sendrecv(sendbuf []byte, dest, sendtag int, recvbuf []byte, source, recvtag int, dt dtype) Status {
	defer watchCall("Sendrecv", source, none, recvtag)()
	var st cstatus
	es := elemSize(dt)
	rc := C.pp_sendrecv(ptr(sendbuf), b.count("Sendrecv", len(sendbuf), es), C.int(dest), C.int(sendtag),
		ptr(recvbuf), b.count("Sendrecv", len(recvbuf), es), C.int(source), C.int(recvtag), C.int(dt), b.h, &st[0])
	return b.status("Sendrecv", len(recvbuf), rc, &st)
}

func (b *commBackend) isend(data []byte, dt dtype, dest, tag int) *reqBackend {
	r := &reqBackend{b: b, op: "Isend", peer: dest, tag: tag, capacity: len(data)}
	r.pinBuf(data)
	rc := C.pp_isend(ptr(data), b.count("Isend", len(data), elemSize(dt)), C.int(dt), C.int(dest), C.int(tag), b.h, &r.h)
	b.check("Isend", rc)
	b.run.pending[r] = struct{}{}
	return r
}

func (b *commBackend) irecv(buf []byte, dt dtype, source, tag int) *reqBackend {
	r := &reqBackend{b: b, isRecv: true, op: "Irecv", peer: source, tag: tag, capacity: len(buf)}
	r.pinBuf(buf)
	rc := C.pp_irecv(ptr(buf), b.count("Irecv", len(buf), elemSize(dt)), C.int(dt), C.int(source), C.int(tag), b.h, &r.h)
	b.check("Irecv", rc)
	b.run.pending[r] = struct{}{}
	return r
}

func (r *reqBackend) pinBuf(buf []byte) {
	if len(buf) > 0 {
		r.pin.Pin(&buf[0])
	}
}

// complete records a finished request's status; a send's status names its
// destination and tag, as with the goroutine backend.
func (r *reqBackend) complete(rc C.int, st *cstatus) Status {
	r.pin.Unpin()
	r.done = true
	delete(r.b.run.pending, r)
	if r.isRecv {
		r.st = r.b.status(r.op, r.capacity, rc, st)
	} else {
		r.b.check(r.op, rc)
		r.st = Status{Source: r.peer, Tag: r.tag, Count: r.capacity}
	}
	return r.st
}

func (b *commBackend) wait(r *reqBackend) Status {
	if r.done {
		return r.st
	}
	defer watchCall("Wait", r.peer, none, r.tag)()
	var st cstatus
	rc := C.pp_wait(r.h, &st[0])
	return r.complete(rc, &st)
}

func (b *commBackend) waitall(reqs []*reqBackend) []Status {
	defer watchCall("Waitall", none, none, none)()
	idx := make([]C.int, 0, len(reqs))
	var open []*reqBackend
	for _, r := range reqs {
		if !r.done {
			idx = append(idx, r.h)
			open = append(open, r)
		}
	}
	if len(open) > 0 {
		sts := make([]cstatus, len(open))
		C.pp_waitall(C.int(len(open)), &idx[0], &sts[0][0])
		for i, r := range open {
			r.complete(sts[i][C.PP_ST_ERROR], &sts[i])
		}
	}
	out := make([]Status, len(reqs))
	for i, r := range reqs {
		out[i] = r.st
	}
	return out
}

func (b *commBackend) test(r *reqBackend) (Status, bool) {
	if r.done {
		return r.st, true
	}
	var flag C.int
	var st cstatus
	rc := C.pp_test(r.h, &flag, &st[0])
	if rc == 0 && flag == 0 {
		return Status{}, false
	}
	return r.complete(rc, &st), true
}
