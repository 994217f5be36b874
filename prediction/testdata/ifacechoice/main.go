// Command ifacechoice is prediction test input: its kernel is a method
// called through an interface that two types of the program implement,
// the one that runs chosen by a flag (a common way to offer several
// algorithms). The profiler cannot tell which method a call reaches, so it
// times the call, not the methods; the profile's loop counts show which
// one ran.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type smoother interface {
	sweep(u []float64) float64
}

type jacobi struct{ w float64 }

func (j *jacobi) sweep(u []float64) float64 {
	s := 0.0
	for i := 1; i < len(u)-1; i++ {
		v := (1-j.w)*u[i] + j.w*0.5*(u[i-1]+u[i+1])
		s += v - u[i]
		u[i] = v
	}
	return s
}

type gaussSeidel struct{}

func (gaussSeidel) sweep(u []float64) float64 {
	s := 0.0
	for i := 1; i < len(u)-1; i++ {
		v := 0.5 * (u[i-1] + u[i+1])
		s += v - u[i]
		u[i] = v
	}
	return s
}

func main() {
	n := flag.Int("n", 1000000, "points")
	steps := flag.Int("steps", 5, "sweeps")
	method := flag.String("method", "jacobi", "jacobi or gs")
	flag.Parse()
	var sm smoother = &jacobi{w: 0.8}
	if *method == "gs" {
		sm = gaussSeidel{}
	}
	mpi.Main(func(c *mpi.Comm) {
		u := make([]float64, *n/c.Size()+2)
		out := []float64{0}
		for t := 0; t < *steps; t++ {
			d := sm.sweep(u)
			mpi.Allreduce(c, []float64{d}, out, mpi.Sum)
		}
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
