// repro-arraybound: a loop bounded by an element of an array field,
// for i := 0; i < b.size[0]; i++, is "data-dependent" to the tool (the
// bound is reloaded in every iteration and an IndexAddr is not taken as
// invariant), so the loop is neither counted nor reduced; the same loop
// with the bound copied to a local first (sweepLocal) is.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type block struct {
	size [2]int
	u    []float64
}

func (b *block) sweep() float64 {
	s := 0.0
	for i := 0; i < b.size[0]; i++ {
		s += b.u[i] * 0.5
	}
	return s
}

// sweep2 is a 2-D nest bounded by b.size[1] and b.size[0] (as jacobi3d's
// update): it is run step by step.
func (b *block) sweep2() float64 {
	s := 0.0
	for y := 0; y < b.size[1]; y++ {
		for x := 0; x < b.size[0]; x++ {
			s += b.u[y*b.size[0]+x] * 0.5
		}
	}
	return s
}

func (b *block) sweepLocal() float64 {
	s, n := 0.0, b.size[0]
	for i := 0; i < n; i++ {
		s += b.u[i] * 0.5
	}
	return s
}

func main() {
	n := flag.Int("n", 1000000, "total points")
	steps := flag.Int("steps", 100, "sweeps")
	local := flag.Bool("local", false, "use sweepLocal")
	rows := flag.Int("rows", 0, "use sweep2 on a rows x (n/rows) block")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		m := *n / c.Size()
		b := &block{size: [2]int{m, 1}, u: make([]float64, m)}
		if *rows > 0 {
			b.size = [2]int{m / *rows, *rows}
		}
		in, out := make([]float64, 1), make([]float64, 1)
		c.BeginInterval(1)
		for range *steps {
			if *rows > 0 {
				in[0] += b.sweep2()
			} else if *local {
				in[0] += b.sweepLocal()
			} else {
				in[0] += b.sweep()
			}
		}
		mpi.Allreduce(c, in, out, mpi.Sum)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("sum", out[0])
		}
	})
}
