// Command repro-solo-setup: rank 0 alone computes a table (a serial setup
// while the other ranks wait in Bcast), then every rank sums its share of
// it -steps times with an Allreduce per step. With -setup=false the table
// is a cheap ramp.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 200000, "table size")
	terms := flag.Int("terms", 40, "series terms per entry of the setup")
	steps := flag.Int("steps", 20, "steps")
	setup := flag.Bool("setup", true, "rank 0 computes the table by a series")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		tab := make([]float64, *n)
		if rank == 0 {
			for i := range tab {
				s := float64(i)
				if *setup {
					x := float64(i) / float64(*n)
					s = 0
					for k := 1; k <= *terms; k++ {
						s += math.Sin(float64(k)*x) / float64(k)
					}
				}
				tab[i] = s
			}
		}
		mpi.Bcast(c, tab, 0)
		lo, hi := rank**n/size, (rank+1)**n/size
		loc, glob := []float64{0}, []float64{0}
		for s := 0; s < *steps; s++ {
			sum := 0.0
			for i := lo; i < hi; i++ {
				sum += tab[i] * float64(s+1)
			}
			loc[0] = sum
			mpi.Allreduce(c, loc, glob, mpi.Sum)
		}
		if rank == 0 {
			fmt.Printf("P=%d sum=%.10g\n", size, glob[0])
		}
	})
}
