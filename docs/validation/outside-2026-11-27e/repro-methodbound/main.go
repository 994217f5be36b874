// Command repro-methodbound: a loop whose bound is a call of a small pure
// method of a value type (l < d.Local()), as LU's cyclic distribution
// writes it, against the same bound hoisted into a variable.
// `predict loops .` shows the difference; -hoist picks the second loop.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

// Dist is a cyclic distribution of n rows over size ranks, seen from rank.
type Dist struct{ n, rank, size int }

// Local is how many rows the rank holds.
func (d Dist) Local() int { return (d.n - d.rank + d.size - 1) / d.size }

func fillCall(d Dist, a []float64) {
	for l := 0; l < d.Local(); l++ {
		r := a[l*d.n : (l+1)*d.n]
		for j := range r {
			r[j] = math.Sin(float64(l*d.size + d.rank + j))
		}
	}
}

func fillHoisted(d Dist, a []float64) {
	nloc := d.Local()
	for l := 0; l < nloc; l++ {
		r := a[l*d.n : (l+1)*d.n]
		for j := range r {
			r[j] = math.Sin(float64(l*d.size + d.rank + j))
		}
	}
}

func main() {
	n := flag.Int("n", 1500, "rows and columns")
	hoist := flag.Bool("hoist", false, "hoist the bound")
	flag.Bool("check", false, "unused")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		d := Dist{*n, c.Rank(), c.Size()}
		a := make([]float64, d.Local()*d.n)
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		if *hoist {
			fillHoisted(d, a)
		} else {
			fillCall(d, a)
		}
		s := []float64{a[len(a)-1]}
		t := []float64{0}
		mpi.Allreduce(c, s, t, mpi.Max)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("elapsed: %.6f s\n", mpi.Wtime()-t0)
		}
	})
}
