// Command genkernel is prediction test input: its kernel is a generic
// function of another package of the program (kern.Sum[float64]). The
// simulation runs the instance, whose regions the profile has under the
// generic's IDs.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
	"github.com/parpredict/parpredict/prediction/testdata/genkernel/kern"
)

func main() {
	n := flag.Int("n", 200000, "elements")
	passes := flag.Int("passes", 20, "passes over the elements per sum")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		xs := make([]float64, *n/c.Size())
		for i := range xs {
			xs[i] = float64(i % 9)
		}
		s := 0.0
		for r := 0; r < 5; r++ {
			part := kern.Sum(xs, *passes)
			out := []float64{0}
			mpi.Allreduce(c, []float64{part}, out, mpi.Sum)
			s += out[0]
		}
		if c.Rank() == 0 {
			fmt.Println(s)
		}
	})
}
