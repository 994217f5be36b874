// Command closurekernel is prediction test input: its kernel is a closure
// that captures a variable, called in a statement of its own.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 2000000, "terms")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		scale := float64(c.Size())
		work := func(m int) float64 {
			s := 0.0
			for i := 0; i < m; i++ {
				s += scale / float64(i+1)
			}
			return s
		}
		s := work(*n / c.Size())
		out := []float64{0}
		mpi.Allreduce(c, []float64{s}, out, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
