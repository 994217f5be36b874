// repro-reqslice: a chain; every rank but 0 pre-posts the Irecv of the
// next block into a ring of requests kept in a slice, waits for the
// current one, computes, and Isends to the next rank.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func work(b []float64) {
	for i, x := range b {
		b[i] = 0.5*x + 0.25*math.Sqrt(x*x+1)
	}
}

func main() {
	blocks := flag.Int("blocks", 200, "blocks")
	size := flag.Int("bs", 8192, "block size")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, np := c.Rank(), c.Size()
		const depth = 3
		bufs := make([][]float64, depth)
		for i := range bufs {
			bufs[i] = make([]float64, *size)
		}
		sends := make([]*mpi.Request, depth)
		recvs := make([]*mpi.Request, depth)
		if rank > 0 {
			recvs[0] = mpi.Irecv(c, bufs[0], rank-1, 0)
		}
		c.Barrier()
		t0 := mpi.Wtime()
		for k := range *blocks {
			b := bufs[k%depth]
			if rank > 0 {
				recvs[k%depth].Wait()
				if next := k + 1; next < *blocks {
					if r := sends[next%depth]; r != nil {
						r.Wait()
						sends[next%depth] = nil
					}
					recvs[next%depth] = mpi.Irecv(c, bufs[next%depth], rank-1, 0)
				}
			} else if r := sends[k%depth]; r != nil {
				r.Wait()
			}
			work(b)
			if rank < np-1 {
				sends[k%depth] = mpi.Isend(c, b, rank+1, 0)
			}
		}
		for _, r := range sends {
			if r != nil {
				r.Wait()
			}
		}
		if rank == np-1 {
			fmt.Printf("elapsed: %.6f s\n", mpi.Wtime()-t0)
		}
	})
}
