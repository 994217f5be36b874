// Command rowaccessor relaxes a rank's rows of a grid kept in a struct,
// reaching each row through a method that returns a slice of the grid's
// array (g.row(k)); the nest's writes through that slice must leave the
// struct's sizes known.
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

func newGrid(w, rows int) *grid {
	return &grid{w: w, rows: rows, v: make([]float64, (rows+2)*w)}
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
	n := flag.Int("n", 400, "grid size")
	steps := flag.Int("steps", 10, "sweeps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		g := newGrid(*n, (rank+1)**n/size-rank**n/size)
		c.BeginInterval(1)
		for range *steps {
			g.sweep()
			next, prev := (rank+1)%size, (rank+size-1)%size
			mpi.Sendrecv(c, g.row(g.rows), next, 0, g.row(0), prev, 0)
		}
		c.EndInterval(1)
		if rank == 0 {
			fmt.Println("rowaccessor:", g.v[g.w])
		}
	})
}
