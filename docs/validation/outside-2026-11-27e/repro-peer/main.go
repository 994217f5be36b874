// Command repro-peer: the peer of a Sendrecv is chosen by data, as a
// pivot row's owner in LU: every rank finds its largest value, an
// Allgather of (value, global index) pairs picks the winner, whose owner is index/m, and rank 0 trades a
// buffer with the winner (when the winner is not rank 0).
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	m := flag.Int("m", 20000, "elements per rank")
	iters := flag.Int("iters", 200, "rounds")
	flag.Bool("check", false, "unused")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		x, y := make([]float64, *m), make([]float64, *m)
		pair, all := make([]float64, 2), make([]float64, 2*size)
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		for it := 0; it < *iters; it++ {
			best, at := -1.0, -1
			for i := range x {
				x[i] = math.Sin(float64(i*(rank+1) + it))
				if v := math.Abs(x[i]); v > best {
					best, at = v, rank*len(x)+i // the global index, as a pivot row
				}
			}
			pair[0], pair[1] = best, float64(at)
			mpi.Allgather(c, pair, all)
			owner, v := 0, -1.0
			for r := 0; r < size; r++ {
				if all[2*r] > v {
					owner, v = int(all[2*r+1])/len(x), all[2*r]
				}
			}
			if owner != 0 {
				if rank == 0 {
					mpi.Sendrecv(c, x, owner, 1, y, owner, 1)
				} else if rank == owner {
					mpi.Sendrecv(c, x, 0, 1, y, 0, 1)
				}
			}
		}
		c.EndInterval(1)
		c.Barrier()
		if rank == 0 {
			fmt.Printf("elapsed: %.6f s\n", mpi.Wtime()-t0)
		}
	})
}
