// Command guarded deals out its items among the ranks by a test in a loop
// over all of them, the way many programs do, in four forms (-form):
// skip the others' items (continue), do one's own (if), ask an owner
// function (owner, blocks of items), and a long loop of light items
// (many, counted by the test's period). Every rank does 1/P of the work.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func work(i, m int) float64 {
	s := 0.0
	for j := range m {
		s += math.Sqrt(float64(i*j + 1))
	}
	return s
}

// owner is the rank whose block of n items holds item i.
func owner(i, n, size int) int { return i * size / n }

func main() {
	form := flag.String("form", "continue", "continue, if, owner or many")
	n := flag.Int("n", 2000, "items")
	m := flag.Int("m", 10000, "work per item")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		c.BeginInterval(1)
		local := 0.0
		switch *form {
		case "continue":
			for i := range *n {
				if i%size != rank {
					continue
				}
				local += work(i, *m)
			}
		case "if":
			for i := 0; i < *n; i++ {
				if i%size == rank {
					for j := range *m {
						local += math.Sqrt(float64(i*j + 2))
					}
				}
			}
		case "owner":
			for i := range *n {
				if owner(i, *n, size) == rank {
					local += work(i, *m)
				}
			}
		case "many":
			for i := range *n * *m / 100 {
				if i%size == rank {
					local += work(i, 100)
				}
			}
		}
		total := []float64{0}
		mpi.Allreduce(c, []float64{local}, total, mpi.Sum)
		c.EndInterval(1)
		if rank == 0 {
			fmt.Printf("%s: %.6g\n", *form, total[0])
		}
	})
}
