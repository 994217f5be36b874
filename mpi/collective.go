package mpi

// Bcast copies root's buf into buf on every rank.
func Bcast[T Elem](c *Comm, buf []T, root int) {
	t0 := c.start(opBcast)
	c.checkRank("Bcast", "root", root, false)
	c.b.bcast(bytesOf(buf), dtypeOf[T](), root)
	site := c.record(t0, opBcast, -1, root, len(buf)*sizeOf[T](), -1, 0)
	if c.tr != nil {
		c.tr.noteValues(opBcast, site, bytesOf(buf))
	}
}

// Reduce combines send element-wise over all ranks with op; the result lands
// in recv on root (recv is ignored elsewhere and may be nil there). The
// goroutine backend combines in rank order, so every run gives the same bits.
func Reduce[T Real](c *Comm, send, recv []T, op Op, root int) {
	t0 := c.start(opReduce)
	c.checkRank("Reduce", "root", root, false)
	c.checkOp("Reduce", op)
	if c.rank == root && len(recv) < len(send) {
		c.failf("Reduce", "receive buffer holds %d elements, send buffer %d", len(recv), len(send))
	}
	c.b.reduce(bytesOf(send), bytesOf(recv), dtypeOf[T](), op, root)
	c.record(t0, opReduce, -1, root, len(send)*sizeOf[T](), -1, 0)
}

// Allreduce combines send element-wise over all ranks with op; every rank
// gets the same result in recv.
func Allreduce[T Real](c *Comm, send, recv []T, op Op) {
	t0 := c.start(opAllreduce)
	c.checkOp("Allreduce", op)
	if len(recv) < len(send) {
		c.failf("Allreduce", "receive buffer holds %d elements, send buffer %d", len(recv), len(send))
	}
	c.b.allreduce(bytesOf(send), bytesOf(recv[:len(send)]), dtypeOf[T](), op)
	c.record(t0, opAllreduce, -1, -1, len(send)*sizeOf[T](), -1, 0)
}

// Gather collects every rank's send, in rank order, into recv on root,
// which must hold Size()*len(send) elements.
func Gather[T Elem](c *Comm, send, recv []T, root int) {
	t0 := c.start(opGather)
	c.checkRank("Gather", "root", root, false)
	var counts, displs []int
	if c.rank == root {
		if len(recv) < c.size*len(send) {
			c.failf("Gather", "receive buffer holds %d elements, need %d x %d", len(recv), c.size, len(send))
		}
		counts, displs = uniform(c.size, len(send)*sizeOf[T]())
	}
	c.b.gatherv(bytesOf(send), bytesOf(recv), counts, displs, dtypeOf[T](), root)
	c.record(t0, opGather, -1, root, len(send)*sizeOf[T](), -1, 0)
}

// Gatherv collects send from every rank into recv on root, rank r's part
// going to recv[displs[r]:displs[r]+counts[r]]. counts and displs are only
// read on root.
func Gatherv[T Elem](c *Comm, send, recv []T, counts, displs []int, root int) {
	t0 := c.start(opGatherv)
	c.checkRank("Gatherv", "root", root, false)
	var bc, bd []int
	if c.rank == root {
		c.checkLayout("Gatherv", "receive", len(recv), counts, displs)
		bc, bd = scaled(counts, sizeOf[T]()), scaled(displs, sizeOf[T]())
	}
	c.b.gatherv(bytesOf(send), bytesOf(recv), bc, bd, dtypeOf[T](), root)
	c.record(t0, opGatherv, -1, root, len(send)*sizeOf[T](), -1, 0)
}

// Scatter sends consecutive blocks of len(recv) elements of root's send to
// the ranks in order; root's send must hold Size()*len(recv) elements.
func Scatter[T Elem](c *Comm, send, recv []T, root int) {
	t0 := c.start(opScatter)
	c.checkRank("Scatter", "root", root, false)
	var counts, displs []int
	if c.rank == root {
		if len(send) < c.size*len(recv) {
			c.failf("Scatter", "send buffer holds %d elements, need %d x %d", len(send), c.size, len(recv))
		}
		counts, displs = uniform(c.size, len(recv)*sizeOf[T]())
	}
	c.b.scatterv(bytesOf(send), counts, displs, bytesOf(recv), dtypeOf[T](), root)
	c.record(t0, opScatter, -1, root, len(recv)*sizeOf[T](), -1, 0)
}

// Scatterv sends send[displs[r]:displs[r]+counts[r]] from root to rank r.
// counts and displs are only read on root.
func Scatterv[T Elem](c *Comm, send []T, counts, displs []int, recv []T, root int) {
	t0 := c.start(opScatterv)
	c.checkRank("Scatterv", "root", root, false)
	var bc, bd []int
	if c.rank == root {
		c.checkLayout("Scatterv", "send", len(send), counts, displs)
		bc, bd = scaled(counts, sizeOf[T]()), scaled(displs, sizeOf[T]())
	}
	c.b.scatterv(bytesOf(send), bc, bd, bytesOf(recv), dtypeOf[T](), root)
	c.record(t0, opScatterv, -1, root, len(recv)*sizeOf[T](), -1, 0)
}

// Allgather collects every rank's send, in rank order, into recv on every
// rank; recv must hold Size()*len(send) elements.
func Allgather[T Elem](c *Comm, send, recv []T) {
	t0 := c.start(opAllgather)
	if len(recv) < c.size*len(send) {
		c.failf("Allgather", "receive buffer holds %d elements, need %d x %d", len(recv), c.size, len(send))
	}
	c.b.allgather(bytesOf(send), bytesOf(recv[:c.size*len(send)]), dtypeOf[T]())
	c.record(t0, opAllgather, -1, -1, len(send)*sizeOf[T](), -1, 0)
}

// Allgatherv collects every rank's send into recv on every rank, rank r's
// part going to recv[displs[r]:displs[r]+counts[r]]; counts[r] must be
// len(send) on rank r. It moves the data as an Alltoallv that sends the
// same block to every rank.
func Allgatherv[T Elem](c *Comm, send, recv []T, counts, displs []int) {
	t0 := c.start(opAllgatherv)
	c.checkLayout("Allgatherv", "receive", len(recv), counts, displs)
	if counts[c.rank] != len(send) {
		c.failf("Allgatherv", "rank %d sends %d elements, but counts[%d] is %d", c.rank, len(send), c.rank, counts[c.rank])
	}
	sz := sizeOf[T]()
	same := make([]int, c.size)
	for r := range same {
		same[r] = len(send) * sz
	}
	c.b.alltoallv(bytesOf(send), same, make([]int, c.size), bytesOf(recv), scaled(counts, sz), scaled(displs, sz), dtypeOf[T]())
	c.record(t0, opAllgatherv, -1, -1, len(send)*sz, -1, 0)
}

// Scan is the inclusive prefix reduction: on rank r, recv holds the send
// buffers of ranks 0..r combined element-wise with op, in rank order (so
// every run gives the same bits). Every rank gathers all the send buffers
// (an Allgather: Size()*len(send) elements of scratch) and combines its
// prefix.
func Scan[T Real](c *Comm, send, recv []T, op Op) {
	t0 := c.start(opScan)
	prefix(c, "Scan", send, recv, op, c.rank+1)
	c.record(t0, opScan, -1, -1, len(send)*sizeOf[T](), -1, 0)
}

// Exscan is the exclusive prefix reduction: on rank r > 0, recv holds the
// send buffers of ranks 0..r-1 combined with op, in rank order; rank 0's
// recv is left as it was (MPI leaves it undefined). It gathers as Scan
// does.
func Exscan[T Real](c *Comm, send, recv []T, op Op) {
	t0 := c.start(opExscan)
	prefix(c, "Exscan", send, recv, op, c.rank)
	c.record(t0, opExscan, -1, -1, len(send)*sizeOf[T](), -1, 0)
}

// prefix gathers every rank's send and sets recv to the first ranks'
// combined with op (recv untouched when ranks is 0).
func prefix[T Real](c *Comm, name string, send, recv []T, op Op, ranks int) {
	c.checkOp(name, op)
	if len(recv) < len(send) {
		c.failf(name, "receive buffer holds %d elements, send buffer %d", len(recv), len(send))
	}
	n := len(send)
	all := make([]T, c.size*n)
	c.b.allgather(bytesOf(send), bytesOf(all), dtypeOf[T]())
	if ranks == 0 {
		return
	}
	acc := recv[:n]
	copy(acc, all[:n])
	for r := 1; r < ranks; r++ {
		combineInto(op, acc, all[r*n:(r+1)*n])
	}
}

// Alltoall sends block j of send to rank j and receives rank j's block into
// block j of recv. Blocks are len(send)/Size() elements; both lengths must
// be multiples of Size() and equal.
func Alltoall[T Elem](c *Comm, send, recv []T) {
	t0 := c.start(opAlltoall)
	if len(send)%c.size != 0 || len(send) != len(recv) {
		c.failf("Alltoall", "send (%d) and receive (%d) buffers must have equal lengths divisible by %d ranks", len(send), len(recv), c.size)
	}
	counts, displs := uniform(c.size, len(send)/c.size*sizeOf[T]())
	c.b.alltoallv(bytesOf(send), counts, displs, bytesOf(recv), counts, displs, dtypeOf[T]())
	c.record(t0, opAlltoall, -1, -1, len(send)*sizeOf[T](), -1, 0)
}

// Alltoallv sends send[sdispls[j]:+sendcounts[j]] to rank j and receives
// rank j's part into recv[rdispls[j]:+recvcounts[j]].
func Alltoallv[T Elem](c *Comm, send []T, sendcounts, sdispls []int, recv []T, recvcounts, rdispls []int) {
	t0 := c.start(opAlltoallv)
	c.checkLayout("Alltoallv", "send", len(send), sendcounts, sdispls)
	c.checkLayout("Alltoallv", "receive", len(recv), recvcounts, rdispls)
	sz := sizeOf[T]()
	c.b.alltoallv(bytesOf(send), scaled(sendcounts, sz), scaled(sdispls, sz),
		bytesOf(recv), scaled(recvcounts, sz), scaled(rdispls, sz), dtypeOf[T]())
	total := 0
	for _, n := range sendcounts {
		total += n
	}
	c.record(t0, opAlltoallv, -1, -1, total*sz, -1, 0)
}

func (c *Comm) checkOp(op string, o Op) {
	if o < Sum || o > Max {
		c.failf(op, "unknown reduction %v", o)
	}
}

// checkLayout validates the counts and displacements of a v-collective
// against a buffer of n elements.
func (c *Comm) checkLayout(op, which string, n int, counts, displs []int) {
	if len(counts) != c.size || len(displs) != c.size {
		c.failf(op, "%s counts (%d) and displacements (%d) must have one entry per rank (%d)", which, len(counts), len(displs), c.size)
	}
	for r := range counts {
		if counts[r] < 0 || displs[r] < 0 || displs[r]+counts[r] > n {
			c.failf(op, "%s block of rank %d [%d,%d) lies outside the %d-element buffer", which, r, displs[r], displs[r]+counts[r], n)
		}
	}
}

// uniform returns counts and displacements of size equal blocks of n bytes.
func uniform(size, n int) (counts, displs []int) {
	counts, displs = make([]int, size), make([]int, size)
	for r := range size {
		counts[r], displs[r] = n, r*n
	}
	return counts, displs
}

func scaled(v []int, k int) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = x * k
	}
	return out
}
