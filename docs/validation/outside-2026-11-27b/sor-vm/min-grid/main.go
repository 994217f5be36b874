// Command mingrid: a rank's rows in a struct made by a constructor
// (&grid{...}), swept by a method over g.rows and traded by a method.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type grid struct {
	w, rows int
	v       []float64
}

func newGrid(n, lo, hi int) *grid {
	g := &grid{w: n, rows: hi - lo}
	g.v = make([]float64, (g.rows+2)*g.w)
	return g
}

func (g *grid) row(k int) []float64 { return g.v[k*g.w : (k+1)*g.w] }

func (g *grid) sweep() {
	for k := 1; k <= g.rows; k++ {
		up, mid := g.row(k-1), g.row(k)
		for j := 0; j < g.w; j++ {
			mid[j] = 0.5*mid[j] + 0.25*up[j] + 1
		}
	}
}

func main() {
	n := flag.Int("n", 1000, "size")
	steps := flag.Int("steps", 20, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		g := newGrid(*n, rank**n/size, (rank+1)**n/size)
		c.BeginInterval(1)
		for range *steps {
			g.sweep()
			next, prev := (rank+1)%size, (rank+size-1)%size
			mpi.Sendrecv(c, g.row(g.rows), next, 0, g.row(0), prev, 0)
		}
		c.EndInterval(1)
		if rank == 0 {
			fmt.Println(g.v[g.w])
		}
	})
}
