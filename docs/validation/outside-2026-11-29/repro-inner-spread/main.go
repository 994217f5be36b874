// Command repro-inner-spread: each rank owns a block of n rows; row i has
// lens[i] entries, peaked in the middle rows (a sparse matrix's row
// lengths). The rank's row loop counts from 0 over its block (the usual
// CSR idiom); the inner loop's count is loaded from lens. Every step sums
// over the block and Allreduces. -v prints each rank's compute time in
// the stepping loop.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 100000, "rows")
	steps := flag.Int("steps", 40, "steps")
	verbose := flag.Bool("v", false, "print per-rank compute")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		lo, hi := rank**n/size, (rank+1)**n/size
		lens := make([]int, hi-lo)
		for i := range lens {
			t := (float64(lo+i)/float64(*n) - 0.5) / 0.08
			lens[i] = 2 + int(80*math.Exp(-t*t))
		}
		loc, glob := []float64{0}, []float64{0}
		busy := 0.0
		c.BeginInterval(1)
		for s := 0; s < *steps; s++ {
			t0 := mpi.Wtime()
			sum := 0.0
			for i := 0; i < len(lens); i++ {
				for k := 0; k < lens[i]; k++ {
					sum += float64(k^s) * 1e-9
				}
			}
			busy += mpi.Wtime() - t0
			loc[0] = sum
			mpi.Allreduce(c, loc, glob, mpi.Sum)
		}
		c.EndInterval(1)
		if *verbose {
			fmt.Printf("rank %d of %d: rows %d, entries %d, compute %.4f s\n", rank, size, len(lens), entries(lens), busy)
		}
	})
}

func entries(l []int) int {
	s := 0
	for _, v := range l {
		s += v
	}
	return s
}
