// Command gridsteps relaxes each rank's rows of a rows x cols grid, a
// sweep from one grid into another that then trade places, with an
// Allreduce of the largest change after every sweep: heat's step without
// the halo exchange.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	rows := flag.Int("rows", 256, "grid rows")
	cols := flag.Int("cols", 256, "grid columns")
	steps := flag.Int("steps", 100, "sweeps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		mine := *rows / c.Size()
		u, unew := make([]float64, (mine+2)**cols), make([]float64, (mine+2)**cols)
		for i := range u {
			u[i] = float64(i % 13)
		}
		local, global := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for s := 0; s < *steps; s++ {
			local[0] = sweep(unew, u, mine, *cols)
			u, unew = unew, u
			mpi.Allreduce(c, local, global, mpi.Max)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(global[0])
		}
	})
}

// sweep sets each inner point of out to the mean of in's four neighbours
// and returns the largest change.
func sweep(out, in []float64, rows, cols int) float64 {
	change := 0.0
	for i := 1; i <= rows; i++ {
		for j := 1; j < cols-1; j++ {
			x := i*cols + j
			out[x] = 0.25 * (in[x-cols] + in[x+cols] + in[x-1] + in[x+1])
			change = math.Max(change, math.Abs(out[x]-in[x]))
		}
	}
	return change
}
