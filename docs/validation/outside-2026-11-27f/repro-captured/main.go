// repro-captured: a closure that only reads a captured options struct
// (the size of a buffer), called by a generic constructor in a loop,
// makes the whole struct unknown to the prediction: its loop count and
// the request ring's index k%o.depth with it, and Wait fails.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

type options struct{ blocks, size, depth int }

// fill makes n values with mk.
func fill[T any](n int, mk func() T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = mk()
	}
	return s
}

func work(b []float64) {
	for i, x := range b {
		b[i] = 0.5*x + 0.25*math.Sqrt(x*x+1)
	}
}

func main() {
	var o options
	flag.IntVar(&o.blocks, "blocks", 200, "blocks")
	flag.IntVar(&o.size, "bs", 8192, "block size")
	flag.IntVar(&o.depth, "depth", 2, "buffers")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, np := c.Rank(), c.Size()
		bufs := fill(o.depth, func() []float64 { return make([]float64, o.size) })
		reqs := make([]*mpi.Request, o.depth)
		c.Barrier()
		t0 := mpi.Wtime()
		for k := range o.blocks {
			b := bufs[k%o.depth]
			if r := reqs[k%o.depth]; r != nil {
				r.Wait()
			}
			if rank > 0 {
				mpi.Recv(c, b, rank-1, 0)
			}
			work(b)
			if rank < np-1 {
				reqs[k%o.depth] = mpi.Isend(c, b, rank+1, 0)
			}
		}
		for _, r := range reqs {
			if r != nil {
				r.Wait()
			}
		}
		if rank == np-1 {
			fmt.Printf("elapsed: %.6f s\n", mpi.Wtime()-t0)
		}
	})
}
