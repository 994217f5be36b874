// repro-sortruns: each rank sorts n/P keys that arrive as P interleaved
// sorted runs (what a sample sort's Alltoallv delivers). At P = 1 that is
// one sorted run (pdqsort: about 1 ns per element); at P = 2 two runs cost
// over 20 times as much per element. The profile's contention run at 2
// ranks measures this, but the slowdown is above the profiler's cap
// (maxSlowdown 4 per rank) and is dropped.
package main

import (
	"flag"
	"fmt"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 4000000, "keys in all")
	reps := flag.Int("reps", 10, "repetitions")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		size := c.Size()
		m := *n / size
		keys := make([]float64, m)
		sum := []float64{0}
		c.BeginInterval(1)
		for r := 0; r < *reps; r++ {
			for j := 0; j < size; j++ { // run j: ascending values i*size+j
				lo, hi := j*m/size, (j+1)*m/size
				for i := lo; i < hi; i++ {
					keys[i] = float64((i-lo)*size + j + r)
				}
			}
			slices.Sort(keys)
			sum[0] += keys[m/2]
		}
		c.EndInterval(1)
		tot := []float64{0}
		mpi.Allreduce(c, sum, tot, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println("done", tot[0])
		}
	})
}
