// Command rangefunc ranges over a library iterator, whose call the
// compiler writes without a position.
package main

import (
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	mpi.Main(func(c *mpi.Comm) {
		x := []float64{1, 2, 3}
		s := 0.0
		for _, v := range slices.All(x) {
			s += v
		}
		out := []float64{0}
		mpi.Allreduce(c, []float64{s}, out, mpi.Sum)
	})
}
