// Command grid2d is a test program in the style of much Go numeric code:
// a struct that holds its dimensions and a 2-D slice of rows made one by
// one, a method whose loops are bounded by the struct's fields, and a
// function that ranges over the rows and over each row. Its predictions
// must follow -n (the row length) without running the loops.
package main

import (
	"flag"

	"github.com/parpredict/parpredict/mpi"
)

type grid struct {
	rows, cols int
	a          [][]float64
}

func newGrid(rows, cols int) *grid {
	g := &grid{rows: rows, cols: cols, a: make([][]float64, rows)}
	for i := range g.a {
		g.a[i] = make([]float64, cols)
	}
	return g
}

func (g *grid) relax() float64 {
	s := 0.0
	for i := 1; i < g.rows-1; i++ {
		for j := 1; j < g.cols-1; j++ {
			g.a[i][j] = 0.25*(g.a[i-1][j]+g.a[i+1][j]+g.a[i][j-1]+g.a[i][j+1]) + 1e-3
			s += g.a[i][j]
		}
	}
	return s
}

func smooth(a [][]float64) float64 {
	s := 0.0
	for i := range a {
		for j := range a[i] {
			a[i][j] *= 0.999
			s += a[i][j]
		}
	}
	return s
}

func main() {
	n := flag.Int("n", 256, "columns")
	m := flag.Int("m", 128, "rows (all ranks together)")
	steps := flag.Int("steps", 5, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		g := newGrid(*m/c.Size(), *n)
		in, out := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for s := 0; s < *steps; s++ {
			in[0] = g.relax()
			in[0] += smooth(g.a)
			mpi.Allreduce(c, in, out, mpi.Sum)
		}
		c.EndInterval(1)
	})
}
