// Command arrayfield sweeps an array-of-slices field of a struct (f, tmp
// [4][]float64, as a lattice Boltzmann code keeps its directions) in a
// method, once before the timed steps and then once per step. The sweep
// writes the slices' elements only: the struct's rows, the steps' trip
// count, stays known, and each rank's share halves as P doubles.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type grid struct {
	rows   int
	f, tmp [4][]float64
}

func (g *grid) sweep() {
	for k := range 4 {
		src, dst := g.f[k], g.tmp[k]
		for j := 0; j < g.rows; j++ {
			dst[j] = src[j]*0.5 + float64(j+k)
		}
	}
}

func main() {
	n := flag.Int("n", 200000, "total rows")
	steps := flag.Int("steps", 20, "sweeps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		g := &grid{rows: *n / c.Size()}
		for k := range 4 {
			g.f[k] = make([]float64, g.rows)
			g.tmp[k] = make([]float64, g.rows)
		}
		g.sweep()
		out := make([]float64, 1)
		c.BeginInterval(1)
		for range *steps {
			g.sweep()
		}
		mpi.Allreduce(c, []float64{g.tmp[0][1]}, out, mpi.Sum)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("sum", out[0])
		}
	})
}
