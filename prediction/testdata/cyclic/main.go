// Command cyclic is a test program whose rows are dealt out cyclically
// (rank r takes rows r, r+size, ...) and whose odd rows cost twenty times
// the even ones: at two ranks, rank 1 gets all the expensive rows. The
// profile's per-iteration times, read by each rank's rows, must show it.
package main

import (
	"flag"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func work(y, n int) float64 {
	reps := n
	if y%2 == 1 {
		reps = 20 * n
	}
	s := 0.0
	for i := 0; i < reps; i++ {
		s += math.Sqrt(float64(i + y))
	}
	return s
}

func main() {
	rows := flag.Int("rows", 64, "rows")
	n := flag.Int("n", 4000, "work per even row")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		acc := []float64{0}
		sum := []float64{0}
		c.BeginInterval(1)
		for y := c.Rank(); y < *rows; y += c.Size() {
			acc[0] += work(y, *n)
		}
		mpi.Allreduce(c, acc, sum, mpi.Sum)
		c.EndInterval(1)
	})
}
