// Command griddims factors the rank count into a process grid in a
// function given the size as a parameter, returning the grid as an array
// (dims(p) [2]int), and sweeps its block of an n x n grid: the search
// must run in the simulation, so that each rank's block, and its time,
// follow P.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func dims(p int) [2]int {
	best := [2]int{p, 1}
	for a := 1; a <= p; a++ {
		if p%a == 0 && a*a <= p {
			best = [2]int{p / a, a}
		}
	}
	return best
}

func main() {
	n := flag.Int("n", 1024, "grid side")
	steps := flag.Int("steps", 10, "sweeps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		d := dims(c.Size())
		rows, cols := *n/d[0], *n/d[1]
		u := make([]float64, rows*cols)
		in, out := make([]float64, 1), make([]float64, 1)
		c.BeginInterval(1)
		for range *steps {
			for i := 0; i < rows*cols; i++ {
				u[i] = u[i]*0.5 + 1
			}
		}
		in[0] = u[0]
		mpi.Allreduce(c, in, out, mpi.Sum)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("grid", d, "sum", out[0])
		}
	})
}
