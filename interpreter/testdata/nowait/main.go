// Command nowait exchanges with its neighbours by Isend/Irecv collected
// with append: the first and last ranks collect fewer requests, and a
// lone rank none, so Waitall gets a nil list.
package main

import "github.com/parpredict/parpredict/mpi"

func main() {
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		buf := make([]float64, 4)
		in := make([]float64, 4)
		var reqs []*mpi.Request
		if rank > 0 {
			reqs = append(reqs, mpi.Irecv(c, in, rank-1, 0))
		}
		if rank+1 < size {
			reqs = append(reqs, mpi.Isend(c, buf, rank+1, 0))
		}
		mpi.Waitall(reqs...)
	})
}
