// repro-contention: jacobi3d3's update alone (no messages): a 3-D 7-point
// sweep over this rank's z slab, returning the largest change, called in
// a loop. validate --np 1,2 compares.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

type block struct {
	nx, ny, nz int
	sx, sy     int
	u, unew    []float64
}

func (b *block) at(x, y, z int) int { return z*b.sy + y*b.sx + x }

func (b *block) update() float64 {
	diff := 0.0
	nx, ny, nz := b.nx, b.ny, b.nz
	for z := 1; z <= nz; z++ {
		for y := 1; y <= ny; y++ {
			k := b.at(1, y, z)
			for x := 1; x <= nx; x++ {
				v := (b.u[k-1] + b.u[k+1] + b.u[k-b.sx] + b.u[k+b.sx] + b.u[k-b.sy] + b.u[k+b.sy]) / 6
				diff = math.Max(diff, math.Abs(v-b.u[k]))
				b.unew[k] = v
				k++
			}
		}
	}
	b.u, b.unew = b.unew, b.u
	return diff
}

func main() {
	n := flag.Int("n", 48, "points per side")
	iters := flag.Int("iters", 500, "sweeps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		b := &block{nx: *n, ny: *n, nz: *n / c.Size()}
		b.sx = b.nx + 2
		b.sy = b.sx * (b.ny + 2)
		b.u = make([]float64, b.sy*(b.nz+2))
		b.unew = make([]float64, len(b.u))
		for i := range b.sy {
			b.u[i], b.unew[i] = 1, 1
		}
		in, out := make([]float64, 1), make([]float64, 1)
		c.BeginInterval(1)
		for range *iters {
			in[0] = b.update()
		}
		mpi.Allreduce(c, in, out, mpi.Max)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("change %.3e\n", out[0])
		}
	})
}
