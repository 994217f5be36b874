// Command dearfirst: rank 0 runs a loop over tasks whose result, a float
// sum, becomes unknown to the simulation after the first task, which the
// simulation runs step by step before it costs the rest. Task -heavy is
// as dear as all the others together (docs/validation/outside-2026-11-29p,
// repro-first-iteration).
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

// task t runs cost(t, n, base) iterations of a damped oscillator.
func task(t, n, base int) float64 {
	steps := cost(t, n, base)
	x, v := 1.0, 0.0
	for s := 0; s < steps; s++ {
		v += 1e-3 * (-x - 0.1*v)
		x += 1e-3 * v
	}
	return x
}

// heavy is the task that costs as much as the n-1 others together.
var heavy = flag.Int("heavy", 0, "the dear task")

// cost of task t.
func cost(t, n, base int) int {
	if t == *heavy {
		return (n - 1) * base
	}
	return base
}

func main() {
	n := flag.Int("n", 40, "tasks")
	base := flag.Int("base", 200000, "steps of a cheap task")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		c.BeginInterval(1)
		sum := 0.0
		if c.Rank() == 0 {
			for t := 0; t < *n; t++ {
				sum += task(t, *n, *base)
			}
		}
		if math.IsNaN(sum) { // a check on the result: the loop is not reduced
			c.Abort(1)
		}
		total := []float64{0}
		mpi.Reduce(c, []float64{sum}, total, mpi.Sum, 0)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("sum", total[0])
		}
	})
}
