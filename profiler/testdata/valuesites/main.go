// Command valuesites is profiler test input: kernels that only calls the
// syntax cannot resolve reach: work through a function value given to
// apply, and the sweep methods through an interface that two types
// implement.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type smoother interface{ sweep(u []float64) float64 }

type jacobi struct{}

func (jacobi) sweep(u []float64) float64 {
	s := 0.0
	for i := 1; i < len(u)-1; i++ {
		s += u[i-1] + u[i+1]
	}
	return s
}

type gaussSeidel struct{}

func (gaussSeidel) sweep(u []float64) float64 {
	s := 0.0
	for i := 1; i < len(u)-1; i++ {
		u[i] = 0.5 * (u[i-1] + u[i+1])
		s += u[i]
	}
	return s
}

func work(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += 1 / float64(i+1)
	}
	return s
}

func apply(f func(int) float64, m int) float64 { return f(m) }

func main() {
	n := flag.Int("n", 1000, "points")
	gs := flag.Bool("gs", false, "Gauss-Seidel sweeps")
	flag.Parse()
	var sm smoother = jacobi{}
	if *gs {
		sm = gaussSeidel{}
	}
	mpi.Main(func(c *mpi.Comm) {
		u := make([]float64, *n/c.Size())
		s := sm.sweep(u)
		s += apply(work, *n/c.Size())
		fmt.Println(s)
	})
}
