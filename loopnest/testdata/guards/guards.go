// Package guards holds reduced nests whose work is dealt out among the
// ranks by tests in a loop over all items, for the tests of Loop.Guards.
package guards

import (
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func kern(m int) float64 {
	s := 0.0
	for j := range m {
		s += math.Sqrt(float64(j))
	}
	return s
}

// Skip leaves the other ranks' items with continue.
func Skip(c *mpi.Comm, n, m int) float64 {
	rank, size := c.Rank(), c.Size()
	s := 0.0
	for i := range n { // skip
		if i%size != rank {
			continue
		}
		s += kern(m)
	}
	return s
}

// Own does its own items' inner loop.
func Own(c *mpi.Comm, n, m int) float64 {
	s := 0.0
	for i := 0; i < n; i++ { // own
		if (i+1)%c.Size() == c.Rank() {
			for j := range m {
				s += float64(i * j)
			}
		}
	}
	return s
}

// Root does the work on rank 0 only.
func Root(c *mpi.Comm, n, m int) float64 {
	rank := c.Rank()
	s := 0.0
	for range n { // root
		if rank == 0 {
			s += kern(m)
		}
	}
	return s
}

// Data tests data as well as the rank: only the rank's test is a guard.
func Data(c *mpi.Comm, xs []int, m int) float64 {
	rank, size := c.Rank(), c.Size()
	s := 0.0
	for i := range xs { // data
		if i%size == rank && xs[i] > 0 {
			s += kern(m)
		}
	}
	return s
}
