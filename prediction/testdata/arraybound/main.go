// Command arraybound sweeps a block whose extents are an array field
// (b.size[0], b.size[1]), read in the loops' conditions, as a 3-D code
// keeps its block's size: the loops' counts follow the block, which
// shrinks as P grows.
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
	for y := 0; y < b.size[1]; y++ {
		for x := 0; x < b.size[0]; x++ {
			s += b.u[y*b.size[0]+x] * 0.5
		}
	}
	return s
}

func main() {
	n := flag.Int("n", 400000, "total points")
	rows := flag.Int("rows", 100, "rows of a block")
	steps := flag.Int("steps", 20, "sweeps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		m := *n / c.Size()
		b := &block{size: [2]int{m / *rows, *rows}, u: make([]float64, m)}
		in, out := make([]float64, 1), make([]float64, 1)
		c.BeginInterval(1)
		for range *steps {
			in[0] += b.sweep()
			mpi.Allreduce(c, in, out, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("sum", out[0])
		}
	})
}
