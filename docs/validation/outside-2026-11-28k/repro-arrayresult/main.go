// repro-arrayresult: a helper that searches for a process grid and returns
// it as an array ([2]int) is a reduced nest, so the grid is unknown to the
// interpreter and every count that depends on it is "taken as" the
// profiled (P = 1) value: no speedup. With -ints the same search returns
// two ints (dims2ints) and the loop is not reduced ("its result is
// returned as an integer").
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func dims2(p int) [2]int {
	best := [2]int{p, 1}
	for a := 1; a <= p; a++ {
		if p%a == 0 && a*a <= p {
			best = [2]int{p / a, a}
		}
	}
	return best
}

func dims2ints(p int) (int, int) {
	x, y := p, 1
	for a := 1; a <= p; a++ {
		if p%a == 0 && a*a <= p {
			x, y = p/a, a
		}
	}
	return x, y
}

func main() {
	n := flag.Int("n", 2048, "grid side")
	steps := flag.Int("steps", 20, "sweeps")
	ints := flag.Bool("ints", false, "use dims2ints")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		var d [2]int
		if *ints {
			d[0], d[1] = dims2ints(c.Size())
		} else {
			d = dims2(c.Size())
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
