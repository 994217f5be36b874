// Command griddims factors the rank count into a process grid in a
// function given the size as a parameter, returning the grid as an array
// (dims(p) [2]int, or with -three dims3(p) [3]int, a search in two
// nested loops), and sweeps its block of an n x n grid: the search
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

// dims3 is a 3-D grid's factors, a loop over the divisors of p holding
// one over those of p/a.
func dims3(p int) [3]int {
	best, score := [3]int{p, 1, 1}, p
	for a := 1; a <= p; a++ {
		if p%a != 0 {
			continue
		}
		for b := 1; b <= p/a; b++ {
			if (p/a)%b != 0 {
				continue
			}
			c := p / a / b
			if s := max(a, b, c) - min(a, b, c); s < score && a >= b && b >= c {
				best, score = [3]int{a, b, c}, s
			}
		}
	}
	return best
}

func main() {
	n := flag.Int("n", 1024, "grid side")
	steps := flag.Int("steps", 10, "sweeps")
	three := flag.Bool("three", false, "factor the size into three (dims3)")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		d := dims(c.Size())
		if *three {
			g := dims3(c.Size())
			d = [2]int{g[0], g[1] * g[2]}
		}
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
