// Command sharedcallee: two loops in one rank's code call the same
// function unit, too short per call to be timed, each n times
// (-shared=false: the second loop calls a copy of it, unit2). Each loop's
// time holds its own calls' (docs/validation/outside-2026-11-29p,
// repro-shared-callee).
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func unit(i int) float64 {
	x := float64(i)
	for k := 0; k < *work; k++ {
		x = x*0.999 + 1
	}
	return x
}

func unit2(i int) float64 {
	x := float64(i)
	for k := 0; k < *work; k++ {
		x = x*0.999 + 1
	}
	return x
}

// work is the iterations of a unit: with many, each call is timed.
var work = flag.Int("work", 2000, "iterations per work unit")

func main() {
	n := flag.Int("n", 20000, "work units per loop")
	shared := flag.Bool("shared", true, "the second loop calls unit too (else its copy unit2)")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		c.BeginInterval(1)
		s := 0.0
		for i := 0; i < *n; i++ {
			s += unit(i)
		}
		if *shared {
			for i := 0; i < *n; i++ {
				s -= unit(i)
			}
		} else {
			for i := 0; i < *n; i++ {
				s -= unit2(i)
			}
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("s", s)
		}
	})
}
