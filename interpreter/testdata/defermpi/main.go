// Command defermpi makes MPI calls in deferred calls: an interval ended
// by a defer, a deferred Barrier, and a deferred function of its own that
// calls Allreduce (TestDeferredMPICalls).
package main

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func total(c *mpi.Comm, x float64) {
	in, out := []float64{x}, []float64{0}
	mpi.Allreduce(c, in, out, mpi.Sum)
	if c.Rank() == 0 {
		fmt.Println("total:", out[0])
	}
}

func step(c *mpi.Comm, k int) {
	defer c.Barrier()
	s := 0.0
	for i := 0; i < 1000*(k+1); i++ {
		s += float64(i)
	}
	_ = s
}

func main() {
	mpi.Main(func(c *mpi.Comm) {
		c.BeginInterval(1)
		defer c.EndInterval(1)
		defer total(c, float64(c.Rank()))
		for k := 0; k < 3; k++ {
			step(c, k)
		}
	})
}
