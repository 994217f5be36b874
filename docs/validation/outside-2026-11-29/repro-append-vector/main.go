// Command repro-append-vector: each rank builds its rows lo..hi-1 (global
// index i) of a list whose row i has rowLen(i) entries, peaked in the
// middle rows, by append (the default) or into a slice preallocated to
// its final size (-prealloc). The real work per row is the same either
// way; -v prints each rank's build time.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func rowLen(i, n int) int {
	t := (float64(i)/float64(n) - 0.5) / 0.08
	return 3 + int(80*math.Exp(-t*t))
}

func main() {
	n := flag.Int("n", 200000, "rows")
	prealloc := flag.Bool("prealloc", false, "preallocate the list")
	verbose := flag.Bool("v", false, "print per-rank build time")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		lo, hi := rank**n/size, (rank+1)**n/size
		t0 := mpi.Wtime()
		var vals []float64
		if *prealloc {
			total := 0
			for i := lo; i < hi; i++ {
				total += rowLen(i, *n)
			}
			vals = make([]float64, 0, total)
		}
		for i := lo; i < hi; i++ {
			k := rowLen(i, *n)
			for e := 0; e < k; e++ {
				vals = append(vals, math.Sqrt(float64(i*e+1)))
			}
		}
		busy := mpi.Wtime() - t0
		loc, glob := []float64{float64(len(vals))}, []float64{0}
		mpi.Allreduce(c, loc, glob, mpi.Sum)
		if *verbose {
			fmt.Printf("rank %d of %d: %d values, build %.4f s (total %.0f)\n", rank, size, len(vals), busy, glob[0])
		}
	})
}
