// Command libsort is prediction test input: most of its time is a library
// call (sort.Float64s) whose cost depends on its argument's length.
package main

import (
	"flag"
	"fmt"
	"sort"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 100000, "elements")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		part := *n / c.Size()
		xs := make([]float64, part)
		for i := range xs {
			xs[i] = float64((i * 7919) % part)
		}
		sort.Float64s(xs)
		out := []float64{0}
		mpi.Allreduce(c, []float64{xs[0]}, out, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
