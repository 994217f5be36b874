// Command dynkernels is profiler test input: kernels called through an
// interface, a variable holding a function literal, and recursion.
package main

import (
	"fmt"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

type smoother interface{ sweep(u []float64) float64 }

type jacobi struct{}

func (jacobi) sweep(u []float64) float64 {
	s := 0.0
	for i := range u {
		s += u[i]
	}
	return s
}

// shape has two implementations: a call of area is not resolved.
type shape interface{ area() float64 }

type square float64

func (s square) area() float64 { return float64(s * s) }

type circle float64

func (c circle) area() float64 { return 3.14 * float64(c*c) }

// grid's area has the name of shape's method, not its signature: it is
// never called through shape.
type grid struct{ cells []float64 }

func (g *grid) area(scale float64) float64 {
	s := 0.0
	for _, c := range g.cells {
		s += scale * c
	}
	return s
}

func sum(xs []float64) float64 {
	if len(xs) <= 4 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s
	}
	h := len(xs) / 2
	return sum(xs[:h]) + sum(xs[h:])
}

func main() {
	mpi.Main(func(c *mpi.Comm) {
		u := make([]float64, 64)
		var sm smoother = jacobi{}
		a := sm.sweep(u)
		work := func(m int) float64 {
			s := 0.0
			for i := 0; i < m; i++ {
				s += float64(i)
			}
			return s
		}
		b := work(len(u))
		other := func(m int) float64 { return float64(m) }
		other = func(m int) float64 { return float64(2 * m) }
		d := other(3)
		var sh shape = square(2)
		if c.Rank() > 0 {
			sh = circle(1)
		}
		e := sh.area()
		f := sum(u)
		g := (&grid{cells: u}).area(2)
		h := slices.IndexFunc(u, func(x float64) bool {
			n := 0
			for y := x; y > 1; y /= 2 {
				n++
			}
			return n > 3
		})
		fmt.Println(a, b, d, e, f, g, h)
	})
}
