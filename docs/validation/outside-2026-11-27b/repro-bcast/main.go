// repro-bcast: every step each rank computes -work/P units (a fixed
// total split over the ranks), then the step's root broadcasts -len
// float64s: the root is k % P with -rotate, else 0. -op allreduce
// replaces the Bcast by an Allreduce of the same buffer.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func spin(n int, x float64) float64 {
	for i := 0; i < n; i++ {
		x = x*0.999999 + 1e-9
	}
	return x
}

func main() {
	steps := flag.Int("steps", 1200, "steps")
	work := flag.Int("work", 200000, "units of work per step, split over the ranks")
	length := flag.Int("len", 600, "float64s broadcast per step")
	rotate := flag.Bool("rotate", true, "root k % P, else 0")
	op := flag.String("op", "bcast", "bcast or allreduce")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		buf := make([]float64, *length)
		out := make([]float64, *length)
		share := *work / c.Size()
		x := 1.0
		c.BeginInterval(1)
		for k := 0; k < *steps; k++ {
			x = spin(share, x)
			root := 0
			if *rotate {
				root = k % c.Size()
			}
			buf[0] = x
			if *op == "allreduce" {
				mpi.Allreduce(c, buf, out, mpi.Sum)
			} else {
				mpi.Bcast(c, buf, root)
			}
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(x)
		}
	})
}
