// Package invoke holds loops that call interface methods, for the
// reduction plan's resolution of such calls (invoke_test.go).
package invoke

import "github.com/parpredict/parpredict/mpi"

// Shape's methods only compute.
type Shape interface{ Area() float64 }

type Circle struct{ R float64 }

func (c Circle) Area() float64 { return 3 * c.R * c.R }

type Rect struct{ W, H float64 }

func (r *Rect) Area() float64 { return r.W * r.H }

// Shapes makes the values that reach Shape.
func Shapes(n int) []Shape {
	s := make([]Shape, n)
	for i := range s {
		if i%2 == 0 {
			s[i] = Circle{float64(i)}
		} else {
			s[i] = &Rect{1, float64(i)}
		}
	}
	return s
}

func Areas(s []Shape, n int) float64 {
	t := 0.0
	for i := 0; i < n; i++ { // areas
		t += s[i].Area()
	}
	return t
}

// Stepper's one implementation calls MPI.
type Stepper interface{ Step() }

type comm struct{ c *mpi.Comm }

func (x comm) Step() { x.c.Barrier() }

func NewStepper(c *mpi.Comm) Stepper { return comm{c} }

func Steps(s Stepper, n int) {
	for i := 0; i < n; i++ { // steps
		s.Step()
	}
}

// Counter's implementation writes a package variable.
type Counter interface{ Inc() }

var hits int

type global struct{}

func (global) Inc() { hits++ }

func NewCounter() Counter { return global{} }

func Counts(c Counter, n int) {
	for i := 0; i < n; i++ { // counts
		c.Inc()
	}
}

// Unmade has no implementation converted anywhere: its calls stay
// unknown.
type Unmade interface{ Get() float64 }

func Gets(u Unmade, n int) float64 {
	t := 0.0
	for i := 0; i < n; i++ { // gets
		t += u.Get()
	}
	return t
}
