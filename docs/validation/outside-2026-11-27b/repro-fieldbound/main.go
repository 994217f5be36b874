// repro-fieldbound: a counted loop whose bound is len of a slice field
// loaded through a pointer (len(g.rows)) is reported data-dependent by
// predict loops (no counter, trips unknown) when its body calls a program
// function that stores anything (scale writes float64s, never a
// [][]float64), but not when the same store is written inline (E) or the
// slice is in a local (B, C).
package main

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type grid struct {
	rank, size int
	rows       [][]float64
}

func (g *grid) first(k int) int { return k / g.size }

func start(k, size int) int { return k / size }

func scale(row []float64) {
	for j := range row {
		row[j] *= 0.5
	}
}

func main() {
	mpi.Main(func(c *mpi.Comm) {
		g := &grid{rank: c.Rank(), size: c.Size(), rows: make([][]float64, 100)}
		for i := range g.rows {
			g.rows[i] = make([]float64, 100)
		}
		rows := g.rows
		c.BeginInterval(1)
		for k := 0; k < 100; k++ {
			// A: start from a method call, bound len(g.rows)
			for l := g.first(k); l < len(g.rows); l++ {
				scale(g.rows[l])
			}
			// B: start from a plain function call, bound len(local)
			for l := start(k, g.size); l < len(rows); l++ {
				scale(rows[l])
			}
			// C: start from an expression, bound len(local)
			for l := k / g.size; l < len(rows); l++ {
				scale(rows[l])
			}
			// D: start from an expression, bound len(g.rows)
			for l := k / g.size; l < len(g.rows); l++ {
				scale(g.rows[l])
			}
			// E: as D, with scale's store written inline
			for l := k / g.size; l < len(g.rows); l++ {
				g.rows[l][0] *= 0.5
			}
		}
		c.EndInterval(1)
		fmt.Println(g.rows[99][99])
	})
}
