// Command spmd is a small SPMD program using every kind of mpi call, for
// the model's MPI leaf tests: a 1-D heat-like halo exchange and residual
// reduction in a time-step loop, plus the other operations.
package main

import (
	"flag"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 1000, "grid size")
	steps := flag.Int("steps", 10, "time steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		lo, hi := rank*(*n)/size, (rank+1)*(*n)/size
		local := make([]float64, hi-lo+2)
		c.BeginInterval(1)
		for t := 0; t < *steps; t++ {
			if rank > 0 {
				mpi.Sendrecv(c, local[1:2], rank-1, 0, local[0:1], rank-1, 1)
			}
			if rank < size-1 {
				mpi.Sendrecv(c, local[hi-lo:hi-lo+1], rank+1, 1, local[hi-lo+1:], rank+1, 0)
			}
			res := []float64{step(local)}
			global := make([]float64, 1)
			mpi.Allreduce(c, res, global, mpi.Sum)
			if global[0] < 1e-6 {
				break
			}
		}
		c.EndInterval(1)
		others(c, local)
	})
}

func step(u []float64) float64 {
	r := 0.0
	for i := 1; i < len(u)-1; i++ {
		v := (u[i-1] + u[i+1]) / 2
		r += (v - u[i]) * (v - u[i])
		u[i] = v
	}
	return r
}

// others calls the remaining operations once each.
func others(c *mpi.Comm, buf []float64) {
	ints := make([]int32, 4)
	all := make([]int32, 4*c.Size())
	counts := make([]int, c.Size())
	displs := make([]int, c.Size())
	if c.Rank() == 0 {
		mpi.Send(c, ints, 1, 7)
	} else if c.Rank() == 1 {
		st := mpi.Recv(c, ints, mpi.AnySource, mpi.AnyTag)
		_ = st.Count
	}
	reqs := []*mpi.Request{mpi.Isend(c, buf, (c.Rank()+1)%c.Size(), 3), mpi.Irecv(c, buf, mpi.AnySource, 3)}
	mpi.Waitall(reqs...)
	r := mpi.Irecv(c, ints, mpi.AnySource, 4)
	if _, done := r.Test(); !done {
		mpi.Send(c, ints, c.Rank(), 4)
		r.Wait()
	}
	mpi.Bcast(c, buf, 0)
	mpi.Reduce(c, ints, ints, mpi.Max, 0)
	mpi.Gather(c, ints, all, 0)
	mpi.Gatherv(c, ints, all, counts, displs, 0)
	mpi.Scatter(c, all, ints, 0)
	mpi.Scatterv(c, all, counts, displs, ints, 0)
	mpi.Allgather(c, ints, all)
	mpi.Alltoall(c, all, all)
	mpi.Alltoallv(c, all, counts, displs, all, counts, displs)
	sub := c.Split(c.Rank()%2, c.Rank())
	sub.Barrier()
	_ = mpi.Wtime()
	if c.Size() > 64 {
		c.Abort(3)
	}
}
