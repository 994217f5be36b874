// Repro: two loops call the same small function unit, each -n times: the
// first with 2000 iterations per call, the second with -short iterations
// per call (the same 2000 by default). unit's loop is too short per call to
// be timed on its own. With -short 20 the second loop costs 1 % of the
// first, yet the prediction charges the first loop about twice its time:
// each call statement is given half of unit's iterations because it made
// half of the calls.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func unit(i, k int) float64 {
	x := float64(i)
	for range k {
		x = x*0.999 + 1
	}
	return x
}

func main() {
	n := flag.Int("n", 20000, "calls per loop")
	short := flag.Int("short", 2000, "iterations per call of the second loop")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		c.BeginInterval(1)
		s := 0.0
		for i := 0; i < *n; i++ {
			s += unit(i, 2000)
		}
		for i := 0; i < *n; i++ {
			s -= unit(i, *short)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("s", s)
		}
	})
}
