// Command bcastreps repeats a kernel a number of times per block that rank 0
// draws and broadcasts: a loop over a count the ranks do not know (for
// range reps), which go/ssa rotates behind a test 0 < reps outside it.
package main

import (
	"flag"
	"fmt"
	"math/rand"

	"github.com/parpredict/parpredict/mpi"
)

func apply(b []float64, reps int) {
	for range reps {
		for i := range b {
			b[i] = b[i]*0.5 + 1
		}
	}
}

func main() {
	blocks := flag.Int("blocks", 200, "blocks")
	bs := flag.Int("bs", 50000, "block size")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		cost := make([]int, *blocks)
		if c.Rank() == 0 {
			rng := rand.New(rand.NewSource(1))
			for i := range cost {
				cost[i] = 1 + rng.Intn(4)
			}
		}
		mpi.Bcast(c, cost, 0)
		buf := make([]float64, *bs)
		s := []float64{0}
		c.BeginInterval(1)
		for k := range *blocks {
			apply(buf, cost[k])
			mpi.Allreduce(c, buf[:1], s, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(s[0])
		}
	})
}
