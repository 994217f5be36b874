//go:build !openmpi && !mpich

package mpi

import (
	"encoding/binary"
	"sort"
)

// Collectives of the goroutine backend run over point-to-point messages in
// the communicator's collective context (ctx+1), tagged by operation, so
// they never match user messages and mismatched collectives deadlock (and
// are reported) instead of exchanging the wrong data. Sends are buffered,
// so the simple linear algorithms used here cannot deadlock by themselves.

const (
	tagBarrier = iota + 1
	tagBcast
	tagReduce
	tagGather
	tagScatter
	tagAlltoall
	tagSplit
	tagAllreduce
	tagAllgather
)

func (b *commBackend) csend(data []byte, dest, tag int) {
	b.w.mu.Lock()
	b.checkFailedLocked()
	b.deliverLocked(b.ctx+1, data, dest, tag, true)
	b.w.mu.Unlock()
}

func (b *commBackend) crecv(buf []byte, source, tag int, d opDesc) {
	b.recvCtx(b.ctx+1, buf, source, tag, d)
}

func (b *commBackend) size() int { return len(b.members) }

func (b *commBackend) barrier() {
	d := opDesc{name: "Barrier", peer: none, tag: none, root: none}
	if b.rank != 0 {
		b.csend(nil, 0, tagBarrier)
		b.crecv(nil, 0, tagBarrier, d)
		return
	}
	for r := 1; r < b.size(); r++ {
		b.crecv(nil, r, tagBarrier, d)
	}
	for r := 1; r < b.size(); r++ {
		b.csend(nil, r, tagBarrier)
	}
}

// bcast uses a binomial tree rooted at root.
func (b *commBackend) bcast(buf []byte, _ dtype, root int) {
	b.bcastTagged(buf, root, "Bcast")
}

func (b *commBackend) bcastTagged(buf []byte, root int, name string) {
	n := b.size()
	vr := (b.rank - root + n) % n
	mask := 1
	for mask < n {
		if vr&mask != 0 {
			b.crecv(buf, (vr-mask+root)%n, tagBcast, opDesc{name: name, peer: none, tag: none, root: root})
			break
		}
		mask <<= 1
	}
	for mask >>= 1; mask > 0; mask >>= 1 {
		if vr+mask < n {
			b.csend(buf, (vr+mask+root)%n, tagBcast)
		}
	}
}

// reduce gathers every contribution at root and combines them in rank order,
// so the result does not depend on timing.
func (b *commBackend) reduce(send, recv []byte, dt dtype, op Op, root int) {
	b.reduceNamed(send, recv, dt, op, root, "Reduce")
}

func (b *commBackend) reduceNamed(send, recv []byte, dt dtype, op Op, root int, name string) {
	if b.rank != root {
		b.csend(send, root, tagReduce)
		return
	}
	acc := alignedBytes(len(send))
	in := alignedBytes(len(send))
	for r := range b.size() {
		src := in
		if r == root {
			src = send
		} else {
			b.crecv(in, r, tagReduce, opDesc{name: name, peer: none, tag: none, root: root})
		}
		if r == 0 {
			copy(acc, src)
		} else {
			combine(dt, op, acc, src)
		}
	}
	copy(recv, acc)
}

// allreduce is recursive doubling, as Open MPI and MPICH choose for small
// messages: every rank stays active (polling) through log2(P) exchanges,
// where a reduce to one rank and a broadcast would leave the others
// waiting through both, and wake them one tree level after another. With
// P not a power of two, the first 2*rem ranks pair up first: even ranks
// hand their data to the next odd rank, sit out, and get the result back
// at the end. Each pair combines the lower rank's data first, so both
// partners, and in the end every rank, hold the same bits; runs are
// deterministic, though the grouping differs from a rank-order fold.
// The cost model's recursive-doubling schedule (commmodel) is the same
// exchange pattern.
func (b *commBackend) allreduce(send, recv []byte, dt dtype, op Op) {
	d := opDesc{name: "Allreduce", peer: none, tag: none, root: none}
	n, rank := b.size(), b.rank
	acc := alignedBytes(len(send))
	copy(acc, send)
	in := alignedBytes(len(send))
	pof2 := 1
	for pof2*2 <= n {
		pof2 *= 2
	}
	rem := n - pof2
	nr := rank - rem // rank among the pof2 participants
	if rank < 2*rem {
		if rank%2 == 0 {
			b.csend(acc, rank+1, tagAllreduce)
			b.crecv(recv, rank+1, tagAllreduce, d)
			return
		}
		b.crecv(in, rank-1, tagAllreduce, d)
		combineOrdered(dt, op, acc, in, true)
		nr = rank / 2
	}
	for mask := 1; mask < pof2; mask <<= 1 {
		pn := nr ^ mask
		peer := pn + rem
		if pn < rem {
			peer = 2*pn + 1
		}
		b.sendrecvCtx(b.ctx+1, acc, peer, tagAllreduce, in, peer, tagAllreduce, d)
		combineOrdered(dt, op, acc, in, peer < rank)
	}
	if rank < 2*rem {
		b.csend(acc, rank-1, tagAllreduce)
	}
	copy(recv, acc)
}

// combineOrdered sets acc to in op acc when inFirst, else to acc op in.
func combineOrdered(dt dtype, op Op, acc, in []byte, inFirst bool) {
	if !inFirst {
		combine(dt, op, acc, in)
		return
	}
	combine(dt, op, in, acc)
	copy(acc, in)
}

func (b *commBackend) gatherv(send, recv []byte, counts, displs []int, _ dtype, root int) {
	b.gathervNamed(send, recv, counts, displs, root, "Gather")
}

func (b *commBackend) gathervNamed(send, recv []byte, counts, displs []int, root int, name string) {
	if b.rank != root {
		b.csend(send, root, tagGather)
		return
	}
	part := func(r int) []byte { return recv[displs[r] : displs[r]+counts[r]] }
	if len(send) > len(part(root)) {
		b.fail(&TruncationError{Receiver: b.rs.rank, Sender: b.rs.rank, Tag: -1, Bytes: len(send), Capacity: len(part(root)), Op: name})
	}
	copy(part(root), send)
	var peers []int
	for r := range b.size() {
		if r != root {
			peers = append(peers, r)
		}
	}
	b.recvFromAll(peers, part, tagGather, opDesc{name: name, peer: none, tag: none, root: root}, nil)
}

func (b *commBackend) scatterv(send []byte, counts, displs []int, recv []byte, _ dtype, root int) {
	if b.rank != root {
		b.crecv(recv, root, tagScatter, opDesc{name: "Scatter", peer: none, tag: none, root: root})
		return
	}
	for r := range b.size() {
		part := send[displs[r] : displs[r]+counts[r]]
		if r == root {
			if len(part) > len(recv) {
				b.fail(&TruncationError{Receiver: b.rs.rank, Sender: b.rs.rank, Tag: -1, Bytes: len(part), Capacity: len(recv), Op: "Scatter"})
			}
			copy(recv, part)
			continue
		}
		b.csend(part, r, tagScatter)
	}
}

// allgather is a ring: in P-1 steps each rank passes the block it got
// last to its right neighbour, so every rank stays active, as in the cost
// model's ring allgather (commmodel).
func (b *commBackend) allgather(send, recv []byte, _ dtype) {
	d := opDesc{name: "Allgather", peer: none, tag: none, root: none}
	n, m := b.size(), len(send)
	copy(recv[b.rank*m:(b.rank+1)*m], send)
	right, left := (b.rank+1)%n, (b.rank-1+n)%n
	for k := range n - 1 {
		out := (b.rank - k + n) % n
		in := (b.rank - k - 1 + 2*n) % n
		b.sendrecvCtx(b.ctx+1, recv[out*m:(out+1)*m], right, tagAllgather, recv[in*m:(in+1)*m], left, tagAllgather, d)
	}
}

func (b *commBackend) alltoallv(send []byte, scounts, sdispls []int, recv []byte, rcounts, rdispls []int, _ dtype) {
	n := b.size()
	own, dst := send[sdispls[b.rank]:sdispls[b.rank]+scounts[b.rank]], recv[rdispls[b.rank]:rdispls[b.rank]+rcounts[b.rank]]
	if len(own) > len(dst) {
		b.fail(&TruncationError{Receiver: b.rs.rank, Sender: b.rs.rank, Tag: -1, Bytes: len(own), Capacity: len(dst), Op: "Alltoall"})
	}
	copy(dst, own)
	peers := make([]int, 0, n-1)
	for k := 1; k < n; k++ {
		peers = append(peers, (b.rank-k+n)%n)
	}
	b.recvFromAll(peers, func(r int) []byte { return recv[rdispls[r] : rdispls[r]+rcounts[r]] }, tagAlltoall,
		opDesc{name: "Alltoall", peer: none, tag: none, root: none}, func() {
			for k := 1; k < n; k++ {
				r := (b.rank + k) % n
				b.deliverLocked(b.ctx+1, send[sdispls[r]:sdispls[r]+scounts[r]], r, tagAlltoall, true)
			}
		})
}

// recvFromAll posts a receive from each rank of peers into buf(peer), in
// the collective context, before sends (if any) deliver this rank's
// blocks, then waits for the receives. A block that finds its receive
// posted is copied once, straight into place; one that does not goes into
// a queued buffer first, which for the megabyte blocks of an all-to-all
// cost more than the copy (and the ping-pong that calibrates the cost
// model is the posted case).
func (b *commBackend) recvFromAll(peers []int, buf func(peer int) []byte, tag int, d opDesc, sends func()) {
	reqs := make([]*reqBackend, len(peers))
	b.w.mu.Lock()
	b.checkFailedLocked()
	for i, r := range peers {
		reqs[i] = b.recvReq(b.ctx+1, buf(r), r, tag, d.name)
		b.postRecvLocked(reqs[i])
	}
	if sends != nil {
		sends()
	}
	b.waitLocked(reqs, d)
	b.w.mu.Unlock()
}

// split exchanges (color, key) between all ranks; rank 0 allocates one
// context per color and broadcasts the first.
func (b *commBackend) split(parent *Comm, color, key int) *Comm {
	n := b.size()
	mine := make([]byte, 16)
	binary.LittleEndian.PutUint64(mine, uint64(int64(color)))
	binary.LittleEndian.PutUint64(mine[8:], uint64(int64(key)))
	all := make([]byte, 16*n)
	counts, displs := uniform(n, 16)
	b.gathervNamed(mine, all, counts, displs, 0, "Split")
	b.bcastTagged(all, 0, "Split")
	type entry struct{ color, key, rank int }
	entries := make([]entry, n)
	colorSet := map[int]bool{}
	for r := range n {
		c := int(int64(binary.LittleEndian.Uint64(all[16*r:])))
		k := int(int64(binary.LittleEndian.Uint64(all[16*r+8:])))
		entries[r] = entry{c, k, r}
		if c != Undefined {
			colorSet[c] = true
		}
	}
	colors := make([]int, 0, len(colorSet))
	for c := range colorSet {
		colors = append(colors, c)
	}
	sort.Ints(colors)
	base := make([]byte, 8)
	if b.rank == 0 {
		b.w.mu.Lock()
		binary.LittleEndian.PutUint64(base, uint64(b.w.nextCtx))
		b.w.nextCtx += 2 * len(colors)
		b.w.mu.Unlock()
	}
	b.bcastTagged(base, 0, "Split")
	if color == Undefined {
		return nil
	}
	var group []entry
	for _, e := range entries {
		if e.color == color {
			group = append(group, e)
		}
	}
	sort.SliceStable(group, func(i, j int) bool {
		if group[i].key != group[j].key {
			return group[i].key < group[j].key
		}
		return group[i].rank < group[j].rank
	})
	members := make([]int, len(group))
	newRank := 0
	for i, e := range group {
		members[i] = b.members[e.rank]
		if e.rank == b.rank {
			newRank = i
		}
	}
	ctx := int(binary.LittleEndian.Uint64(base)) + 2*sort.SearchInts(colors, color)
	return &Comm{rank: newRank, size: len(members), worldRank: parent.worldRank, tr: parent.tr,
		b: &commBackend{w: b.w, rs: b.rs, ctx: ctx, rank: newRank, members: members}}
}
