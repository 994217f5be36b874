// Command solver: periodic 1-D diffusion whose communication goes through
// an interface.
package main

import (
	"flag"
	"fmt"

	"example.com/solver/comm"
	"github.com/parpredict/parpredict/mpi"
)

type solver struct {
	ex    comm.Exchanger
	u, v  []float64
	steps int
}

func (s *solver) step() float64 {
	s.ex.Exchange(s.u)
	local := 0.0
	for i := 1; i < len(s.u)-1; i++ {
		s.v[i] = s.u[i] + 0.25*(s.u[i-1]-2*s.u[i]+s.u[i+1])
		local += s.v[i] * s.v[i]
	}
	s.u, s.v = s.v, s.u
	return s.ex.Norm(local)
}

func main() {
	n := flag.Int("n", 1000000, "cells")
	steps := flag.Int("steps", 50, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		m := *n / c.Size()
		s := &solver{ex: comm.NewRing(c), u: make([]float64, m+2), v: make([]float64, m+2), steps: *steps}
		for i := range s.u {
			s.u[i] = float64((c.Rank()*m + i) % 7)
		}
		c.BeginInterval(1)
		var norm float64
		for k := 0; k < s.steps; k++ {
			norm = s.step()
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("norm %.6e\n", norm)
		}
	})
}
