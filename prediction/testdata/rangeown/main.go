// Command rangeown ranges over an iterator of its own: the interpreter
// runs the iterator and the loop body it calls per element, each call
// costing the body's profiled time per iteration.
package main

import (
	"flag"
	"iter"

	"github.com/parpredict/parpredict/mpi"
)

// evens yields the elements of x at even indexes.
func evens(x []float64) iter.Seq[float64] {
	return func(yield func(float64) bool) {
		for i := 0; i < len(x); i += 2 {
			if !yield(x[i]) {
				return
			}
		}
	}
}

func main() {
	n := flag.Int("n", 20000, "elements")
	reps := flag.Int("reps", 5, "sweeps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		x := make([]float64, *n/c.Size())
		for i := range x {
			x[i] = float64(i % 7)
		}
		out := []float64{0}
		c.BeginInterval(1)
		for r := 0; r < *reps; r++ {
			s := 0.0
			for v := range evens(x) {
				s += v * v
			}
			mpi.Allreduce(c, []float64{s}, out, mpi.Sum)
		}
		c.EndInterval(1)
	})
}
