// Command sweepswap sweeps an array of slices into another a step at a
// time through a method without loops that sweeps, then swaps the two
// arrays (sweepSwap): the step loop is reduced, and the sweep's loops are
// reached only through the wrapper.
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

func (g *grid) sweepSwap() {
	g.sweep()
	g.f, g.tmp = g.tmp, g.f
}

func main() {
	n := flag.Int("n", 200000, "total rows")
	steps := flag.Int("steps", 100, "sweeps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		g := &grid{rows: *n / c.Size()}
		for k := range 4 {
			g.f[k], g.tmp[k] = make([]float64, g.rows), make([]float64, g.rows)
		}
		out := []float64{0}
		c.BeginInterval(1)
		for range *steps {
			g.sweepSwap()
		}
		mpi.Allreduce(c, []float64{g.f[0][0]}, out, mpi.Sum)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("sum", out[0])
		}
	})
}
