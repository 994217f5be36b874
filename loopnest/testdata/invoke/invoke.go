// Package invoke holds loops that call interface methods, for the
// reduction plan's resolution of such calls (invoke_test.go).
package invoke

import (
	"context"

	"github.com/parpredict/parpredict/mpi"
)

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

// Kernels through function values: square and the closure both only
// compute, so a loop calling a func(float64) float64 is reduced.
func square(x float64) float64 { return x * x }

func Apply(xs []float64, f func(float64) float64) float64 {
	t := 0.0
	for i := range xs { // apply
		t += f(xs[i])
	}
	return t
}

func Kernels(xs []float64, k float64) float64 {
	return Apply(xs, square) + Apply(xs, func(x float64) float64 { return k * x })
}

// The only func(int) values: one calls MPI.
func Each(n int, f func(int)) {
	for i := 0; i < n; i++ { // each
		f(i)
	}
}

func Ranks(c *mpi.Comm, n int) {
	Each(n, func(int) { c.Barrier() })
}

// A func() may come from the standard library (context's cancel
// function): calls of one stay unknown.
func Calls(n int, f func()) {
	for i := 0; i < n; i++ { // calls
		f()
	}
}

func Cancels(ctx context.Context, n int) {
	_, cancel := context.WithCancel(ctx)
	Calls(n, cancel)
	Calls(n, func() {})
}

// A method expression is a function value too: (*acc).add, taken as a
// func(*acc, int), writes a package variable, so a loop calling a
// func(*acc, int) is not reduced although the other one, noop, only
// computes.
type acc struct{ n int }

func (a *acc) add(x int) { hits += x }

func noop(a *acc, x int) {}

func Exprs(a *acc, n int, f func(*acc, int)) {
	for i := 0; i < n; i++ { // exprs
		f(a, i)
	}
}

func UseExprs(a *acc) {
	Exprs(a, 3, noop)
	Exprs(a, 3, (*acc).add)
}

// A closure only called where it is made (sum) is no value a call
// through a func(int32) can reach: Sweep's loop is reduced, whatever sum
// does.
func Sweep(xs []int32, f func(int32) int32) {
	for i := range xs { // sweep
		xs[i] = f(xs[i])
	}
}

func Sums(c *mpi.Comm, xs []int32) int32 {
	sum := func(v int32) int32 {
		c.Barrier()
		return v
	}
	Sweep(xs, func(v int32) int32 { return v + 1 })
	return sum(xs[0])
}
