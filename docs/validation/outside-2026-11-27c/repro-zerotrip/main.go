// Command repro-zerotrip: a loop over -n values whose inner while-loop
// (advance a destination index past P-1 splitters) never iterates at
// P = 1 and iterates only P-1 times per pass at P >= 2. The profile's
// two-rank contention run then divides the outer loop's time by those
// P-1 inner iterations: a "slowdown" of about n/(P-1).
//
//	go run . -np 2
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 2_000_000, "values per rank")
	reps := flag.Int("reps", 20, "passes")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		p := c.Size()
		keys := make([]int, *n)
		for i := range keys {
			keys[i] = i
		}
		spl := make([]int, p-1) // ascending: keys below spl[d] go to d
		for d := range spl {
			spl[d] = (d + 1) * *n / p
		}
		count := make([]int, p)
		c.BeginInterval(1)
		for range *reps {
			clear(count)
			d := 0
			for _, k := range keys {
				for d < len(spl) && k >= spl[d] {
					d++
				}
				count[d]++
			}
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("counts", count)
		}
	})
}
