// repro-converge: a while loop that stops on a value from Allreduce
// (convergence test), with the test's variable known (math.Inf) before
// the first iteration. Each iteration relaxes the rank's block of n.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

// relax does some work over x and returns a change that halves each time.
func relax(x []float64, it int) float64 {
	s := 0.0
	for i := range x {
		x[i] = 0.5*x[i] + math.Sqrt(float64(i)+x[i])
		s += x[i]
	}
	return s*0 + math.Ldexp(1, -it)
}

func main() {
	n := flag.Int("n", 2000000, "size")
	maxit := flag.Int("maxit", 100, "most iterations")
	tol := flag.Float64("tol", 1e-6, "tolerance")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		lo, hi := c.Rank()**n/c.Size(), (c.Rank()+1)**n/c.Size()
		x := make([]float64, hi-lo)
		out := make([]float64, 1)
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		change := math.Inf(1)
		it := 0
		for it < *maxit && change >= *tol {
			mpi.Allreduce(c, []float64{relax(x, it)}, out, mpi.Max)
			change = out[0]
			it++
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("%d iterations\nelapsed: %.6f s\n", it, mpi.Wtime()-t0)
		}
	})
}
