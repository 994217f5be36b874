package mpi_test

import (
	"slices"
	"testing"

	"github.com/parpredict/parpredict/mpi"
)

// contribution is rank r's deterministic vector for the reduction tests.
func contribution(r, n int) []int64 {
	v := make([]int64, n)
	for i := range v {
		v[i] = int64((r+1)*(i+2)%7 - 3)
	}
	return v
}

// serialReduce is the reference result of reducing every rank's contribution.
func serialReduce(np, n int, op mpi.Op) []int64 {
	acc := contribution(0, n)
	for r := 1; r < np; r++ {
		for i, x := range contribution(r, n) {
			switch op {
			case mpi.Sum:
				acc[i] += x
			case mpi.Prod:
				acc[i] *= x
			case mpi.Min:
				acc[i] = min(acc[i], x)
			case mpi.Max:
				acc[i] = max(acc[i], x)
			}
		}
	}
	return acc
}

func TestBarrier(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		for range 3 {
			c.Barrier()
		}
	})
}

func TestBcastEveryRoot(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		for root := range c.Size() {
			buf := make([]float64, 5)
			if c.Rank() == root {
				for i := range buf {
					buf[i] = float64(root*10 + i)
				}
			}
			mpi.Bcast(c, buf, root)
			for i, x := range buf {
				if x != float64(root*10+i) {
					errs.add(c, "Bcast from %d gave %v", root, buf)
					break
				}
			}
		}
	})
}

func TestReduceAndAllreduce(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		const n = 6
		for _, op := range []mpi.Op{mpi.Sum, mpi.Prod, mpi.Min, mpi.Max} {
			want := serialReduce(c.Size(), n, op)
			root := c.Size() - 1
			got := make([]int64, n)
			mpi.Reduce(c, contribution(c.Rank(), n), got, op, root)
			if c.Rank() == root && !slices.Equal(got, want) {
				errs.add(c, "Reduce %v = %v, want %v", op, got, want)
			}
			all := make([]int64, n)
			mpi.Allreduce(c, contribution(c.Rank(), n), all, op)
			if !slices.Equal(all, want) {
				errs.add(c, "Allreduce %v = %v, want %v", op, all, want)
			}
		}
		// Floats and a named type: the sum of ranks.
		type celsius float32
		s := []celsius{0}
		mpi.Allreduce(c, []celsius{celsius(c.Rank())}, s, mpi.Sum)
		f := []float64{0}
		mpi.Allreduce(c, []float64{0.5 * float64(c.Rank())}, f, mpi.Max)
		if n := c.Size(); s[0] != celsius(n*(n-1)/2) || f[0] != 0.5*float64(n-1) {
			errs.add(c, "float reductions gave %v %v", s, f)
		}
	})
}

// TestAllreduceSameBits checks that every rank gets the same bits from a
// floating-point sum whose value depends on the grouping: MPI leaves the
// order open, but ranks that disagree would take different branches.
func TestAllreduceSameBits(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		r := float64(c.Rank())
		mine := []float64{0.1 * (r + 1), 1e16 * (1 - 2*float64(c.Rank()%2)), 1 / (r + 3)}
		sum := make([]float64, len(mine))
		mpi.Allreduce(c, mine, sum, mpi.Sum)
		all := make([]float64, len(sum)*c.Size())
		mpi.Allgather(c, sum, all)
		for k := range c.Size() {
			if !slices.Equal(all[k*len(sum):(k+1)*len(sum)], sum) {
				errs.add(c, "rank %d's sum %v differs from this rank's %v", k, all[k*len(sum):(k+1)*len(sum)], sum)
			}
		}
	})
}

func TestGatherScatter(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		n, r := c.Size(), c.Rank()
		root := n / 2
		var all []int32
		if r == root {
			all = make([]int32, 2*n)
		}
		mpi.Gather(c, []int32{int32(r), int32(-r)}, all, root)
		if r == root {
			for k := range n {
				if all[2*k] != int32(k) || all[2*k+1] != int32(-k) {
					errs.add(c, "Gather gave %v", all)
					break
				}
			}
		}
		// Scatter the gathered vector back, doubled.
		for i := range all {
			all[i] *= 2
		}
		mine := make([]int32, 2)
		mpi.Scatter(c, all, mine, root)
		if mine[0] != int32(2*r) || mine[1] != int32(-2*r) {
			errs.add(c, "Scatter gave %v", mine)
		}
	})
}

func TestGathervScatterv(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		n, r := c.Size(), c.Rank()
		// Rank k owns k+1 elements, laid out in reverse rank order with gaps.
		counts, displs := make([]int, n), make([]int, n)
		off := 0
		for k := n - 1; k >= 0; k-- {
			counts[k], displs[k] = k+1, off
			off += k + 2
		}
		mine := make([]uint8, r+1)
		for i := range mine {
			mine[i] = uint8(r)
		}
		var all []uint8
		if r == 0 {
			all = make([]uint8, off)
		}
		mpi.Gatherv(c, mine, all, counts, displs, 0)
		if r == 0 {
			for k := range n {
				for i := range counts[k] {
					if all[displs[k]+i] != uint8(k) {
						errs.add(c, "Gatherv gave %v", all)
					}
				}
			}
		}
		back := make([]uint8, r+1)
		mpi.Scatterv(c, all, counts, displs, back, 0)
		if !slices.Equal(back, mine) {
			errs.add(c, "Scatterv gave %v, want %v", back, mine)
		}
	})
}

func TestAllgather(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		all := make([]complex64, c.Size())
		mpi.Allgather(c, []complex64{complex(float32(c.Rank()), -1)}, all)
		for k, x := range all {
			if x != complex(float32(k), -1) {
				errs.add(c, "Allgather gave %v", all)
				break
			}
		}
	})
}

func TestAlltoall(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		n, r := c.Size(), c.Rank()
		const blk = 3
		send, recv := make([]int, n*blk), make([]int, n*blk)
		for j := range n {
			for i := range blk {
				send[j*blk+i] = 1000*r + 10*j + i // from r to j
			}
		}
		mpi.Alltoall(c, send, recv)
		for j := range n {
			for i := range blk {
				if recv[j*blk+i] != 1000*j+10*r+i {
					errs.add(c, "Alltoall block %d = %v", j, recv[j*blk:(j+1)*blk])
					return
				}
			}
		}
	})
}

func TestAlltoallv(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		n, r := c.Size(), c.Rank()
		// Rank r sends j+1 copies of 100r+j to rank j.
		sc, sd, rc, rd := make([]int, n), make([]int, n), make([]int, n), make([]int, n)
		so, ro := 0, 0
		for j := range n {
			sc[j], sd[j] = j+1, so
			so += j + 1
			rc[j], rd[j] = r+1, ro
			ro += r + 1
		}
		send := make([]float64, so)
		for j := range n {
			for i := range sc[j] {
				send[sd[j]+i] = float64(100*r + j)
			}
		}
		recv := make([]float64, ro)
		mpi.Alltoallv(c, send, sc, sd, recv, rc, rd)
		for j := range n {
			for i := range rc[j] {
				if recv[rd[j]+i] != float64(100*j+r) {
					errs.add(c, "Alltoallv from %d: %v", j, recv[rd[j]:rd[j]+rc[j]])
					return
				}
			}
		}
	})
}

func TestSplit(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		n, r := c.Size(), c.Rank()
		color := r % 2
		if r == n-1 && n > 2 {
			color = mpi.Undefined
		}
		sub := c.Split(color, -r) // reverse order inside each color
		// A second split of the parent, by every rank, still works.
		sum := []int{0}
		mpi.Allreduce(c.Split(0, r), []int{1}, sum, mpi.Sum)
		if sum[0] != n {
			errs.add(c, "parent split allreduce %v", sum)
		}
		if color == mpi.Undefined {
			if sub != nil {
				errs.add(c, "Undefined color gave a communicator")
			}
			return
		}
		var members []int
		for k := n - 1; k >= 0; k-- {
			if k%2 == color && !(k == n-1 && n > 2) {
				members = append(members, k)
			}
		}
		if sub.Size() != len(members) || members[sub.Rank()] != r {
			errs.add(c, "Split: rank %d of %d, members %v", sub.Rank(), sub.Size(), members)
			return
		}
		// Collectives and point-to-point stay inside the sub-communicator.
		got := []int{0}
		mpi.Allreduce(sub, []int{r}, got, mpi.Sum)
		want := 0
		for _, k := range members {
			want += k
		}
		if got[0] != want {
			errs.add(c, "sub Allreduce %d, want %d", got[0], want)
		}
		if sub.Size() > 1 {
			nxt, prv := (sub.Rank()+1)%sub.Size(), (sub.Rank()-1+sub.Size())%sub.Size()
			in := []int{0}
			st := mpi.Sendrecv(sub, []int{r}, nxt, 0, in, prv, 0)
			if in[0] != members[prv] || st.Source != prv {
				errs.add(c, "sub Sendrecv got %v from %d", in, st.Source)
			}
		}
	})
}

func TestAllgatherv(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		n, r := c.Size(), c.Rank()
		// Rank j contributes j+1 copies of 10j, laid out in reverse rank
		// order with a gap of one element between blocks.
		counts, displs := make([]int, n), make([]int, n)
		at := 0
		for j := n - 1; j >= 0; j-- {
			counts[j], displs[j] = j+1, at
			at += j + 2
		}
		send := make([]int32, r+1)
		for i := range send {
			send[i] = int32(10 * r)
		}
		recv := make([]int32, at)
		for i := range recv {
			recv[i] = -1
		}
		mpi.Allgatherv(c, send, recv, counts, displs)
		for j := range n {
			for i := range counts[j] {
				if recv[displs[j]+i] != int32(10*j) {
					errs.add(c, "Allgatherv gave %v", recv)
					return
				}
			}
			if gap := displs[j] + counts[j]; gap < len(recv) && recv[gap] != -1 {
				errs.add(c, "Allgatherv wrote the gap after block %d: %v", j, recv)
				return
			}
		}
	})
}

func TestScanAndExscan(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		r := c.Rank()
		send := []int{r + 1, 2}
		got := make([]int, 2)
		mpi.Scan(c, send, got, mpi.Sum)
		if want := []int{(r + 1) * (r + 2) / 2, 2 * (r + 1)}; got[0] != want[0] || got[1] != want[1] {
			errs.add(c, "Scan Sum gave %v, want %v", got, want)
		}
		ex := []int{-7, -7}
		mpi.Exscan(c, send, ex, mpi.Sum)
		want := []int{-7, -7} // rank 0's buffer is left alone
		if r > 0 {
			want = []int{r * (r + 1) / 2, 2 * r}
		}
		if ex[0] != want[0] || ex[1] != want[1] {
			errs.add(c, "Exscan Sum gave %v, want %v", ex, want)
		}
		mx := make([]float64, 1)
		mpi.Scan(c, []float64{float64((r * 7) % 5)}, mx, mpi.Max)
		best := 0.0
		for k := 0; k <= r; k++ {
			best = max(best, float64((k*7)%5))
		}
		if mx[0] != best {
			errs.add(c, "Scan Max gave %v, want %v", mx[0], best)
		}
	})
}
