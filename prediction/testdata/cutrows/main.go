// Command cutrows counts, on each rank, the points (rows of d values cut
// from one slice) whose smallest weighted sum is small, and adds the
// counts up.
// The count is returned and its branch tests data the simulation does
// not have, so its loop gives up on it; the innermost loop counts over
// the row the outer body cuts, which the nest's time cannot count, so the
// iterations left cost the profiled time per iteration
// (TestGiveUpOverCutRows).
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 100000, "points per rank")
	d := flag.Int("d", 6, "values per point")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		pts := make([]float64, *n**d)
		for i := range pts {
			pts[i] = float64((i*7919+c.Rank())%1000) / 1000
		}
		small := []int64{int64(count(pts, *d))}
		total := []int64{0}
		mpi.Allreduce(c, small, total, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println(total[0])
		}
	})
}

// count is the number of points whose smallest weighted sum, over three
// weightings, is below d.
func count(pts []float64, d int) int {
	k := 0
	for i := 0; i < len(pts)/d; i++ {
		x := pts[i*d : (i+1)*d]
		least := float64(d)
		for w := 1; w <= 3; w++ {
			s := 0.0
			for j, v := range x {
				s += v * float64((j+w)%3)
			}
			least = min(least, s)
		}
		if least < float64(d)/2 {
			k++
		}
	}
	return k
}
