// Command collbench times 30 Allgathers and then 30 Allreduces of a vector of
// -n float64s (800 KB by default) on the goroutine backend, the time per
// call as rank 0 sees it between two Barriers.
//
//	go run . -np 8
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 100000, "")
	it := flag.Int("iters", 30, "")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		x := make([]float64, *n)
		mine := make([]float64, *n/c.Size())
		y := make([]float64, *n)
		mpi.Allgather(c, mine, x)
		c.Barrier()
		t0 := mpi.Wtime()
		for range *it {
			mpi.Allgather(c, mine, x)
		}
		c.Barrier()
		t1 := mpi.Wtime()
		for range *it {
			mpi.Allreduce(c, x, y, mpi.Sum)
		}
		c.Barrier()
		if c.Rank() == 0 {
			fmt.Printf("P=%d Allgather %.1f us, Allreduce %.1f us (%d B)\n", c.Size(), (t1-t0)/float64(*it)*1e6, (mpi.Wtime()-t1)/float64(*it)*1e6, *n*8)
		}
	})
}
