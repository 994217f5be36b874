// Command recursivekernel is prediction test input: its kernel adds its
// share by halves, recursively.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func sum(xs []float64) float64 {
	if len(xs) <= 256 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s
	}
	h := len(xs) / 2
	return sum(xs[:h]) + sum(xs[h:])
}

func main() {
	n := flag.Int("n", 1000000, "elements")
	reps := flag.Int("reps", 5, "repetitions")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		xs := make([]float64, *n/c.Size())
		out := []float64{0}
		for r := 0; r < *reps; r++ {
			s := sum(xs)
			mpi.Allreduce(c, []float64{s}, out, mpi.Sum)
		}
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
