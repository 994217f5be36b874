// Command repro-unreached-probe: each step packs -m values through a tiny
// method (g.at) only when there is a neighbour, i.e. only at P >= 2, and
// does a fixed local sum at every P. The profile at P = 1 never runs the
// pack loop, so its timer plan (made from the P = 1 counts) times every
// call of g.at; the two-rank contention run then fills the loop's times
// with a ~50 ns probe around a ~1 ns call.
//
//	go run . -np 2
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type grid struct {
	w int
	v []float64
}

func (g *grid) at(i, j int) int { return i*g.w + j }

func main() {
	m := flag.Int("m", 2000, "values packed per step")
	steps := flag.Int("steps", 2000, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		g := &grid{w: 4, v: make([]float64, 4*(*m))}
		buf, in := make([]float64, *m), make([]float64, *m)
		other := c.Rank() ^ 1
		s := 0.0
		c.BeginInterval(1)
		for range *steps {
			for k := range g.v { // the same work at every P
				s += g.v[k] * 0.5
			}
			if other < c.Size() {
				for i := range buf {
					buf[i] = g.v[g.at(i, 1)]
				}
				mpi.Sendrecv(c, buf, other, 0, in, other, 0)
			}
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("sum", s)
		}
	})
}
