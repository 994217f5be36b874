// Command copies spends its steps copying a rank's arrays (n/P elements
// each): its time grows with -n only if the copies are costed per
// element, not per call.
package main

import (
	"flag"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 1<<16, "elements, all ranks together")
	steps := flag.Int("steps", 20, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		local := *n / c.Size()
		u := make([]float64, local)
		v := make([]float64, local)
		x, y := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for s := 0; s < *steps; s++ {
			copy(v, u)
			copy(u, v)
			mpi.Allreduce(c, x, y, mpi.Sum)
		}
		c.EndInterval(1)
	})
}
