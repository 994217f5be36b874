// Command repro-funcvalue: a generic Map whose loop calls a
// func(float64) float64 is taken to contain MPI because another
// function value of the same signature (sum, a closure over Allreduce)
// exists in the program. The Map loop is then not reduced, and runs
// element by element in the interpreter.
//
//	go run . -np 2
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

// Map replaces every element x of xs by f(x).
func Map[T any](xs []T, f func(T) T) {
	for i, x := range xs {
		xs[i] = f(x)
	}
}

func main() {
	n := flag.Int("n", 1000000, "elements per rank")
	iters := flag.Int("iters", 50, "iterations")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		in, out := make([]float64, 1), make([]float64, 1)
		sum := func(v float64) float64 { // same signature as the kernel below
			in[0] = v
			mpi.Allreduce(c, in, out, mpi.Sum)
			return out[0]
		}
		x := make([]float64, *n/c.Size())
		t := 0.0
		c.BeginInterval(1)
		for range *iters {
			Map(x, func(v float64) float64 { return 0.5*v + 1 })
			t = sum(x[0])
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("total", t)
		}
	})
}
