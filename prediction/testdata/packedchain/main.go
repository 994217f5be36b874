// Command packedchain: each rank packs the values of its block above a
// threshold into its buffer every step, a count the interpreter cannot
// know, and passes them along the chain of ranks: the first rank with
// Send, the interior ones with Sendrecv, the last with Recv. A profile
// whose runs stop at 2 ranks never runs the Sendrecv.
package main

import (
	"flag"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

// chain is one rank's part.
type chain struct {
	c   *mpi.Comm
	x   []float64
	buf []float64
}

// pack keeps the values above the threshold, shifted by the step.
func (s *chain) pack(step int) {
	s.buf = s.buf[:0]
	for i, v := range s.x {
		if math.Sin(v+float64(i+step)) > 0.5 {
			s.buf = append(s.buf, v)
		}
	}
}

func main() {
	n := flag.Int("n", 20000, "values per rank")
	steps := flag.Int("steps", 20, "exchanges")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		s := &chain{c: c, x: make([]float64, *n)}
		for i := range s.x {
			s.x[i] = float64(i + rank**n)
		}
		in := make([]float64, *n)
		for step := range *steps {
			s.pack(step)
			switch {
			case size == 1:
			case rank == 0:
				mpi.Send(c, s.buf, 1, 0)
			case rank == size-1:
				mpi.Recv(c, in, rank-1, 0)
			default:
				mpi.Sendrecv(c, s.buf, rank+1, 0, in, rank-1, 0)
			}
		}
	})
}
