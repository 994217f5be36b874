// Command nestedcall is prediction test input: its kernel is called in the
// argument list of another call, where the profiler times it in place.
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

func total(c *mpi.Comm, x float64) float64 {
	out := []float64{0}
	mpi.Allreduce(c, []float64{x}, out, mpi.Sum)
	return out[0]
}

func main() {
	n := flag.Int("n", 200000, "terms")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		s := 0.0
		for i := 0; i < 5; i++ {
			s = total(c, work(*n/c.Size()))
		}
		if c.Rank() == 0 {
			fmt.Println(s)
		}
	})
}
