// Command twovalues is prediction test input: two kernels of the same
// signature are passed as function values to the function that calls
// them, so one call site runs both and its time cannot be split between
// them: their loops are counted but not timed, and the prediction says so.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func harmonic(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += 1 / float64(i+1)
	}
	return s
}

func squares(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += float64(i) * float64(i)
	}
	return s
}

func apply(f func(int) float64, m int) float64 {
	return f(m)
}

func main() {
	n := flag.Int("n", 200000, "terms")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		s := apply(harmonic, *n/c.Size()) + apply(squares, *n/c.Size())
		out := []float64{0}
		mpi.Allreduce(c, []float64{s}, out, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
