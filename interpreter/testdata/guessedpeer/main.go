// Command guessedpeer is interpreter test input: each rank picks its
// partner from data the interpreter does not know (a random draw stands
// for a pivot search), leaving it at -1 when the search finds nothing.
// The real program always finds one; the interpreter, following the
// branch's profiled frequency, may not.
package main

import (
	"math/rand"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	mpi.Main(func(c *mpi.Comm) {
		rank := c.Rank()
		partner := -1
		if rand.Float64() >= 0 {
			partner = 1 - rank
		}
		buf := []float64{float64(rank)}
		mpi.Sendrecv(c, buf, partner, 0, make([]float64, 1), partner, 0)
	})
}
