// Command rangelib ranges over the standard library's iterators: each step
// sums the squares of its share of the elements through slices.All and
// scales them through slices.Backward, calling a function of its own per
// element. The iterations run inside the library, so the interpreter
// charges them as the body's profiled time per iteration times the
// slice's length: the interval's time must follow -n.
package main

import (
	"flag"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

func scale(v float64) float64 { return 0.5*v + 1 }

func main() {
	n := flag.Int("n", 4000000, "elements")
	reps := flag.Int("reps", 20, "sweeps")
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
			for _, v := range slices.All(x) {
				s += v * v
			}
			for i, v := range slices.Backward(x) {
				if v > 5 {
					continue
				}
				x[i] = scale(v)
			}
			mpi.Allreduce(c, []float64{s}, out, mpi.Sum)
		}
		c.EndInterval(1)
	})
}
