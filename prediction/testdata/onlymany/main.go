// Command onlymany is prediction test input: a branch on exchanged data
// that only runs with two ranks or more, which a profile at one rank never
// reaches.
package main

import (
	"fmt"
	"math/rand"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	mpi.Main(func(c *mpi.Comm) {
		mine := []float64{rand.Float64()} // unknown to the interpreter
		if p := c.Size(); p > 1 {
			theirs := []float64{0}
			partner := c.Rank() ^ 1
			if partner < p {
				mpi.Sendrecv(c, mine, partner, 0, theirs, partner, 0)
			}
			if theirs[0] > mine[0] {
				mine[0] = theirs[0]
			}
		}
		out := []float64{0}
		mpi.Allreduce(c, mine, out, mpi.Max)
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
