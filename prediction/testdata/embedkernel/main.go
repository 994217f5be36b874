// Command embedkernel is prediction test input: its kernel is a method
// promoted from an embedded field (logged embeds *jacobi) and called
// through an interface, so the call runs a synthetic wrapper around it.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type smoother interface{ sweep(u []float64) float64 }

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

// logged wraps a smoother; its sweep is jacobi's, promoted.
type logged struct {
	*jacobi
	name string
}

func main() {
	n := flag.Int("n", 4000000, "points")
	steps := flag.Int("steps", 5, "sweeps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		u := make([]float64, *n/c.Size()+2)
		var sm smoother = logged{&jacobi{w: 0.8}, "j"}
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
