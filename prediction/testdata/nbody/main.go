// Command nbody is a test program with a kernel that takes its sizes from
// a struct (len(s.bodies)), steps over its bodies by a stride parameter
// (a cyclic distribution), and writes through pointers to elements
// (&s.bodies[i]) in nests called from a time-step loop. Its compute grows
// with the square of -n.
package main

import (
	"flag"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

type body struct {
	x, y, vx, vy, m float64
}

func (b *body) move(dt float64) {
	b.x += b.vx * dt
	b.y += b.vy * dt
}

type system struct {
	bodies []body
	dt     float64
}

func (s *system) accel(first, stride int) {
	for i := first; i < len(s.bodies); i += stride {
		bi := &s.bodies[i]
		ax, ay := 0.0, 0.0
		for j := 0; j < len(s.bodies); j++ {
			dx, dy := s.bodies[j].x-bi.x, s.bodies[j].y-bi.y
			d2 := dx*dx + dy*dy + 1e-2
			inv := s.bodies[j].m / (d2 * math.Sqrt(d2))
			ax += dx * inv
			ay += dy * inv
		}
		bi.vx += ax * s.dt
		bi.vy += ay * s.dt
	}
}

func main() {
	n := flag.Int("n", 300, "bodies")
	steps := flag.Int("steps", 3, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		s := &system{bodies: make([]body, *n), dt: 1e-3}
		for i := range s.bodies {
			s.bodies[i] = body{x: float64(i % 37), y: float64(i % 91), m: 1}
		}
		pos := make([]float64, 2**n)
		c.BeginInterval(1)
		for st := 0; st < *steps; st++ {
			s.accel(c.Rank(), c.Size())
			for i := range s.bodies {
				s.bodies[i].move(s.dt)
				pos[2*i], pos[2*i+1] = s.bodies[i].x, s.bodies[i].y
			}
			mpi.Bcast(c, pos, 0)
		}
		c.EndInterval(1)
	})
}
