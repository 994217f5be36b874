// Command methodbound fills a rank's rows of a cyclic distribution in
// loops bounded by methods called in the loop's header every iteration:
// a value receiver's d.Local() and a pointer receiver's b.Rows().
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

// dist is a cyclic distribution of n rows over size ranks, seen from rank.
type dist struct{ n, rank, size int }

// local is how many rows the rank holds.
func (d dist) local() int { return (d.n - d.rank + d.size - 1) / d.size }

// band is a rank's rows of a block distribution.
type band struct{ lo, hi, n int }

func (b *band) rows() int { return b.hi - b.lo }

func fillCyclic(d dist, a []float64) {
	for l := 0; l < d.local(); l++ {
		for j := 0; j < d.n; j++ {
			a[l*d.n+j] = math.Sin(float64(l*d.size + d.rank + j))
		}
	}
}

func fillBand(b *band, a []float64) {
	for i := 0; i < b.rows(); i++ {
		for j := 0; j < b.n; j++ {
			a[i*b.n+j] = math.Cos(float64(b.lo + i + j))
		}
	}
}

func main() {
	n := flag.Int("n", 600, "rows and columns")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		d := dist{*n, c.Rank(), c.Size()}
		b := &band{c.Rank() * *n / c.Size(), (c.Rank() + 1) * *n / c.Size(), *n}
		a := make([]float64, d.local()**n)
		g := make([]float64, b.rows()**n)
		c.Barrier()
		c.BeginInterval(1)
		fillCyclic(d, a)
		fillBand(b, g)
		s := []float64{a[len(a)-1] + g[len(g)-1]}
		t := []float64{0}
		mpi.Allreduce(c, s, t, mpi.Max)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(t[0])
		}
	})
}
