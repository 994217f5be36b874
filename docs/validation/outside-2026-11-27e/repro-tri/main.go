// Command repro-tri: LU's trailing update without the pivoting. For every
// k the rows i > k (cyclic over the ranks) get r[j] -= l * p[j] for
// j = k+1..n-1: a triangular nest. -form closure writes the row update as
// a closure capturing k, called per row (as lu/ does); -form loop writes
// it inline.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 1000, "matrix side")
	form := flag.String("form", "closure", "closure or loop")
	flag.Bool("check", false, "unused")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size, n := c.Rank(), c.Size(), *n
		nloc := (n - rank + size - 1) / size
		a := make([]float64, nloc*n)
		for i := range a {
			a[i] = float64(i%13) + 1
		}
		p := make([]float64, n)
		for j := range p {
			p[j] = 1 / float64(j+1)
		}
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		for k := 0; k < n; k++ {
			first := 0
			if k >= rank {
				first = (k-rank)/size + 1
			}
			if *form == "loop" {
				for l := first; l < nloc; l++ {
					lv := a[l*n+k] * 0.5
					for j := k + 1; j < n; j++ {
						a[l*n+j] -= lv * p[j]
					}
				}
			} else {
				update := func(r []float64) {
					lv := r[k] * 0.5
					for j := k + 1; j < n; j++ {
						r[j] -= lv * p[j]
					}
				}
				for l := first; l < nloc; l++ {
					update(a[l*n : (l+1)*n])
				}
			}
		}
		c.EndInterval(1)
		s := []float64{a[len(a)-1]}
		t := []float64{0}
		mpi.Allreduce(c, s, t, mpi.Sum)
		if rank == 0 {
			fmt.Printf("elapsed: %.6f s\n", mpi.Wtime()-t0)
		}
	})
}
