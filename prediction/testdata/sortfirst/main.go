// Command sortfirst: each rank computes its share of -n terms before its
// first MPI operation, then makes a burst of reductions with nothing
// between them (TestLongComputeBeforeBurstShares). On a node with more
// ranks than cores the burst synchronises finely, the long first part
// does not.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 4000000, "terms in all")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		c.BeginInterval(1)
		lo, hi := c.Rank()*(*n)/c.Size(), (c.Rank()+1)*(*n)/c.Size()
		s := 0.0
		for i := lo; i < hi; i++ {
			s += 1 / (1 + float64(i))
		}
		in, out := []float64{s}, []float64{0}
		for k := 0; k < 20; k++ {
			mpi.Allreduce(c, in, out, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("%.6f\n", out[0])
		}
	})
}
