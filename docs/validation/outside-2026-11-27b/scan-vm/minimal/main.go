// Command scanmin has scan's loops (a prefix sum, a collective, a loop
// adding a constant to a slice) in one function. Profiled with
// --baseline on the 2-core VM (2026-11-27 15:00 UTC) its binary without
// probes ran 364 ms against 320 ms accounted by the instrumented one, the
// other direction from scan's 298 against 361 ms: the code layout of
// such loops moves their speed either way (NOTES-B.md, finding 4).
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 4000000, "elements")
	reps := flag.Int("reps", 60, "passes")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		in := make([]float64, *n/c.Size())
		for i := range in {
			in[i] = float64(i % 7)
		}
		out := make([]float64, len(in))
		c.BeginInterval(1)
		s := 0.0
		for range *reps {
			s = 0
			for i, v := range in {
				s += v
				out[i] = s
			}
			sum, total := []float64{s}, []float64{0}
			mpi.Allreduce(c, sum, total, mpi.Sum) // a collective in the loop: each inner loop gets its own timer
			for i := range out {
				out[i] += total[0]
			}
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(s)
		}
	})
}
