// Command scattercounts: rank 0 scatters -n numbers in blocks whose
// counts and offsets every rank computes in a loop over the ranks, then
// each rank smooths its block (TestRankTableLoopsRun). Skipped as a
// reduced nest, that loop would leave the counts, and so the blocks'
// lengths, unknown.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 400000, "numbers in all")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		p := c.Size()
		var all []float64
		if c.Rank() == 0 {
			all = make([]float64, *n)
			for i := range all {
				all[i] = float64(i % 17)
			}
		}
		counts, displs := make([]int, p), make([]int, p)
		for r := 0; r < p; r++ {
			counts[r] = (r+1)*(*n)/p - r*(*n)/p
			displs[r] = r * (*n) / p
		}
		mine := make([]float64, counts[c.Rank()])
		c.BeginInterval(1)
		mpi.Scatterv(c, all, counts, displs, mine, 0)
		for pass := 0; pass < 10; pass++ {
			for i := 1; i < len(mine)-1; i++ {
				mine[i] = 0.5*mine[i] + 0.25*(mine[i-1]+mine[i+1])
			}
		}
		c.EndInterval(1)
		out := []float64{0}
		mpi.Reduce(c, []float64{mine[len(mine)/2]}, out, mpi.Sum, 0)
		if c.Rank() == 0 {
			fmt.Printf("%.3f\n", out[0])
		}
	})
}
