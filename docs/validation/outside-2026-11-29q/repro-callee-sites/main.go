// Command repro-callee-sites: one kernel with a two-level nest (its outer
// loop timed by the profiler, its inner loop not), called from two reduced
// loops: -steps calls over the whole n x n block, and -tiny x -steps calls
// over a 1 x 1 block. The second loop costs nothing, yet the prediction
// charges the first loop's kernel (1 + tiny) times its time.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func sweep(a []float64, rows, cols, n int) float64 {
	s := 0.0
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			s += a[i*n+j] * 0.5
		}
	}
	return s
}

func main() {
	n := flag.Int("n", 1000, "block side")
	steps := flag.Int("steps", 100, "big calls")
	tiny := flag.Int("tiny", 0, "tiny calls per big call, from another loop")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		a := make([]float64, *n**n)
		for i := range a {
			a[i] = float64(i % 7)
		}
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		s := 0.0
		for range *steps {
			s += sweep(a, *n, *n, *n)
		}
		for range *steps * *tiny {
			s += sweep(a, 1, 1, *n)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("sum %.1f\nelapsed: %.4f s\n", s, mpi.Wtime()-t0)
		}
	})
}
