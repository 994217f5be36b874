// Command guesscount counts, on each rank, the random points of the unit
// square that fall inside the quarter circle, and adds the counts up
// (Allreduce). The count is returned, so its loop runs step by step;
// its branch tests random data, so the profiled frequency decides it,
// and the count, known only by those guesses, gives up
// (TestGuessedCountGivesUp).
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 200000, "points per rank")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		g := rand.New(rand.NewPCG(uint64(c.Rank()), 1))
		hits := []int64{count(g, *n)}
		total := []int64{0}
		mpi.Allreduce(c, hits, total, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println(4 * float64(total[0]) / float64(*n*c.Size()))
		}
	})
}

func count(g *rand.Rand, n int) int64 {
	var hits int64
	for range n {
		x, y := g.Float64(), g.Float64()
		if x*x+y*y <= 1 {
			hits++
		}
	}
	return hits
}
