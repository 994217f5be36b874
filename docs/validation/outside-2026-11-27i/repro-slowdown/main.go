// repro-slowdown: a compute loop split over the ranks. Predicted with a
// profile that has no --ppn runs (speedup's default profile) on
// vm9-2026-11-27h/local.yaml, whose compute_slowdown row for 2 ranks per
// node is 0.732 (< 1: a speedup from sharing the node), P = 2 comes out
// 0.732 x T(1)/2.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 20000000, "iterations over all ranks")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		lo, hi := c.Rank()**n/c.Size(), (c.Rank()+1)**n/c.Size()
		local, total := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for i := lo; i < hi; i++ {
			local[0] += math.Sqrt(float64(i))
		}
		mpi.Allreduce(c, local, total, mpi.Sum)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(total[0])
		}
	})
}
