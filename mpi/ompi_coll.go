//go:build openmpi || mpich

package mpi

// #include "ompi_helpers.h"
import "C"

import "unsafe"

// Collectives map one to one onto MPI's. The front end passes counts and
// displacements in bytes; MPI wants them in elements of the datatype.

func (b *commBackend) barrier() {
	defer watchCall("Barrier", none, none, none)()
	b.check("Barrier", C.pp_barrier(b.h))
}

func (b *commBackend) bcast(buf []byte, dt dtype, root int) {
	defer watchCall("Bcast", none, root, none)()
	rc := C.pp_bcast(ptr(buf), b.count("Bcast", len(buf), elemSize(dt)), C.int(dt), C.int(root), b.h)
	b.check("Bcast", rc)
}

func (b *commBackend) reduce(send, recv []byte, dt dtype, op Op, root int) {
	defer watchCall("Reduce", none, root, none)()
	send = detach(send, recv)
	rc := C.pp_reduce(ptr(send), ptr(recv), b.count("Reduce", len(send), elemSize(dt)), C.int(dt), C.int(op), C.int(root), b.h)
	b.check("Reduce", rc)
}

func (b *commBackend) allreduce(send, recv []byte, dt dtype, op Op) {
	defer watchCall("Allreduce", none, none, none)()
	send = detach(send, recv)
	rc := C.pp_allreduce(ptr(send), ptr(recv), b.count("Allreduce", len(send), elemSize(dt)), C.int(dt), C.int(op), b.h)
	b.check("Allreduce", rc)
}

func (b *commBackend) gatherv(send, recv []byte, counts, displs []int, dt dtype, root int) {
	defer watchCall("Gather", none, root, none)()
	es := elemSize(dt)
	send = detach(send, recv)
	cc, cd := b.layout("Gatherv", counts, es), b.layout("Gatherv", displs, es)
	rc := C.pp_gatherv(ptr(send), b.count("Gatherv", len(send), es), ptr(recv), first(cc), first(cd), C.int(dt), C.int(root), b.h)
	b.check("Gatherv", rc)
}

func (b *commBackend) scatterv(send []byte, counts, displs []int, recv []byte, dt dtype, root int) {
	defer watchCall("Scatter", none, root, none)()
	es := elemSize(dt)
	send = detach(send, recv)
	cc, cd := b.layout("Scatterv", counts, es), b.layout("Scatterv", displs, es)
	rc := C.pp_scatterv(ptr(send), first(cc), first(cd), ptr(recv), b.count("Scatterv", len(recv), es), C.int(dt), C.int(root), b.h)
	b.check("Scatterv", rc)
}

func (b *commBackend) allgather(send, recv []byte, dt dtype) {
	defer watchCall("Allgather", none, none, none)()
	send = detach(send, recv)
	rc := C.pp_allgather(ptr(send), b.count("Allgather", len(send), elemSize(dt)), ptr(recv), C.int(dt), b.h)
	b.check("Allgather", rc)
}

func (b *commBackend) alltoallv(send []byte, scounts, sdispls []int, recv []byte, rcounts, rdispls []int, dt dtype) {
	defer watchCall("Alltoall", none, none, none)()
	es := elemSize(dt)
	send = detach(send, recv)
	sc, sd := b.layout("Alltoallv", scounts, es), b.layout("Alltoallv", sdispls, es)
	rcc, rd := b.layout("Alltoallv", rcounts, es), b.layout("Alltoallv", rdispls, es)
	rc := C.pp_alltoallv(ptr(send), first(sc), first(sd), ptr(recv), first(rcc), first(rd), C.int(dt), b.h)
	b.check("Alltoallv", rc)
}

// split is MPI_Comm_split; the new communicator is freed when the run ends.
func (b *commBackend) split(parent *Comm, color, key int) *Comm {
	defer watchCall("Split", none, none, none)()
	var h C.int
	b.check("Split", C.pp_comm_split(b.h, C.int(color), C.int(key), &h))
	if h < 0 {
		return nil
	}
	b.run.comms = append(b.run.comms, h)
	var r, s C.int
	C.pp_comm_rank(h, &r)
	C.pp_comm_size(h, &s)
	return &Comm{rank: int(r), size: int(s), worldRank: parent.worldRank, tr: parent.tr,
		b: &commBackend{h: h, rank: int(r), worldRank: b.worldRank, run: b.run}}
}

// layout converts byte counts or displacements into element units.
func (b *commBackend) layout(op string, v []int, es int) []C.int {
	if v == nil {
		return nil
	}
	out := make([]C.int, len(v))
	for i, x := range v {
		out[i] = b.count(op, x, es)
	}
	return out
}

func first(v []C.int) *C.int {
	if len(v) == 0 {
		return nil
	}
	return &v[0]
}

// detach returns send, or a copy of it if it overlaps recv: MPI forbids
// aliased send and receive buffers.
func detach(send, recv []byte) []byte {
	if len(send) == 0 || len(recv) == 0 {
		return send
	}
	s, r := uintptr(unsafe.Pointer(&send[0])), uintptr(unsafe.Pointer(&recv[0]))
	if s < r+uintptr(len(recv)) && r < s+uintptr(len(send)) {
		c := alignedBytes(len(send))
		copy(c, send)
		return c
	}
	return send
}
