// Command rowsize splits the ranks into two halves (even and odd world
// ranks) and divides its work among the ranks of its half: the trip count
// of the reduced nest depends on the size of a sub-communicator, not on
// the number of ranks, once as a block of rows computed before the loop
// and once as a stride of the loop itself.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 400, "rows of work per half")
	m := flag.Int("m", 2000, "work per row")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		half := c.Split(c.Rank()%2, c.Rank())
		rows := *n / half.Size()
		c.BeginInterval(1)
		s := 0.0
		for i := 0; i < rows; i++ {
			for j := 0; j < *m; j++ {
				s += math.Sqrt(float64(i*j + 1))
			}
		}
		// The same work again, dealt out cyclically over the half: the
		// step is a call in the loop, which a reduced nest never runs.
		for i := half.Rank(); i < *n; i += half.Size() {
			for j := 0; j < *m; j++ {
				s += math.Sqrt(float64(i*j + 2))
			}
		}
		total := []float64{0}
		mpi.Allreduce(half, []float64{s}, total, mpi.Sum)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("rowsize: %d ranks, sum %.6g\n", c.Size(), total[0])
		}
	})
}
