// repro-ownerfilter: every rank walks all n items once, before the timed
// loop, and keeps those it owns (append under a test of the owner against
// the rank), so it holds n/P of them. The timed loop then works on the kept
// items. With kept a local variable this predicts (step by step); as a
// field of a struct, the prediction takes len(kept) as the 1-rank profile's n at every P.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

// slab holds a rank's items.
type slab struct{ kept []float64 }

func main() {
	n := flag.Int("n", 400000, "items over all ranks")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		s := &slab{}
		for i := 0; i < *n; i++ {
			x := (float64(i) + 0.5) / float64(*n)
			if int(x*float64(c.Size())) == c.Rank() {
				s.kept = append(s.kept, x)
			}
		}
		local, total := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for round := 0; round < 20; round++ {
			sum := 0.0
			for _, x := range s.kept {
				sum += math.Sin(x + float64(round))
			}
			local[0] += sum
			mpi.Allreduce(c, local, total, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(total[0])
		}
	})
}
