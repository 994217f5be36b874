// Command libunits calls library functions on a rank's slices once per
// step: the profiler counts the lengths each statement gives them (its
// iterations), except where an argument has effects (evaluated once more,
// it could change what the program does) or a variadic call packs its
// arguments.
package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/parpredict/parpredict/mpi"
)

func fresh(xs []float64) []float64 { return xs }

func main() {
	n := flag.Int("n", 4096, "elements")
	steps := flag.Int("steps", 10, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		u := make([]float64, *n)
		for i := range u {
			u[i] = float64((i * 7919) % *n)
		}
		word := strings.Repeat("ab", 50)
		x, y := []float64{0}, []float64{0}
		for s := 0; s < *steps; s++ {
			slices.Sort(u[:len(u)/2])
			slices.Reverse(fresh(u))
			k := strings.Count(word, "ab")
			fmt.Sprint(k, s)
			x[0] = float64(k)
			mpi.Allreduce(c, x, y, mpi.Sum)
		}
	})
}
