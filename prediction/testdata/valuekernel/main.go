// Command valuekernel is prediction test input: its kernel is passed as a
// function value to the function that calls it. A function used as a
// value may be called from anywhere, so the profiler does not time it:
// its loop is counted, the call through the value is timed, and the
// program's only function of that signature used as a value is what the
// call ran.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func work(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += 1 / float64(i+1)
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
		s := apply(work, *n/c.Size())
		out := []float64{0}
		mpi.Allreduce(c, []float64{s}, out, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
