// Command libvalue is prediction test input: the function that calls its
// kernel through a function value is also given a function of the
// standard library (math.Sqrt), whose runs the profile does not count, so
// what that call site spent in the kernel cannot be told: the kernel's
// loop is counted but not timed, and the prediction says so.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func work(x float64) float64 {
	s := 0.0
	for i := 0; i < int(x); i++ {
		s += 1 / float64(i+1)
	}
	return s
}

func apply(f func(float64) float64, x float64) float64 {
	return f(x)
}

func main() {
	n := flag.Int("n", 200000, "terms")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		s := apply(work, float64(*n/c.Size())) + apply(math.Sqrt, float64(c.Rank()))
		out := []float64{0}
		mpi.Allreduce(c, []float64{s}, out, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
