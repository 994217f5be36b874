// Command appendrows: each rank builds its rows lo..hi-1 of a list whose
// row i has rowLen(i) entries, more in the middle rows, by append (or
// into a slice made to its final size, -prealloc). The profile's one rank
// appends every row to one slice, whose reallocations fall in a few rows
// of its per-iteration vector; a rank of four appends to its own.
package main

import (
	"flag"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func rowLen(i, n int) int {
	t := (float64(i)/float64(n) - 0.5) / 0.08
	return 3 + int(80*math.Exp(-t*t))
}

func main() {
	n := flag.Int("n", 200000, "rows")
	prealloc := flag.Bool("prealloc", false, "make the list at its final size first")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		lo, hi := rank**n/size, (rank+1)**n/size
		var vals []float64
		if *prealloc {
			total := 0
			for i := lo; i < hi; i++ {
				total += rowLen(i, *n)
			}
			vals = make([]float64, 0, total)
		}
		c.BeginInterval(1)
		for i := lo; i < hi; i++ {
			k := rowLen(i, *n)
			for e := 0; e < k; e++ {
				vals = append(vals, math.Sqrt(float64(i*e+1)))
			}
		}
		c.EndInterval(1)
		loc, glob := []float64{float64(len(vals))}, []float64{0}
		mpi.Allreduce(c, loc, glob, mpi.Sum)
	})
}
