// Command selfwork is prediction test input: with one rank, rank 0 runs
// every work item itself; with more, the others do, rank 0 only adds up.
// The kernels are called from both places, and a profile at one rank
// reaches only the first: work directly (its loop timed), scaled through
// a function value (a function used as a value is never timed: its time
// is its call sites').
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func work(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += math.Sqrt(float64(i))
	}
	return s
}

func part(n int) float64 {
	s := 0.0
	for i := 0; i < n/8; i++ {
		s += math.Log(float64(i + 1))
	}
	return s
}

var scaled = part

func main() {
	items := flag.Int("items", 400, "work items")
	size := flag.Int("size", 20000, "iterations per item")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		p, me := c.Size(), c.Rank()
		total := 0.0
		if p == 1 {
			for k := 0; k < *items; k++ {
				total += work(*size) + scaled(*size)
			}
		} else {
			if me > 0 {
				for k := me - 1; k < *items; k += p - 1 {
					total += work(*size) + scaled(*size)
				}
			}
			// A loop with MPI calls, reached only with more ranks: its
			// numbers are not taken from a contention run.
			for r := 0; r < 2; r++ {
				c.Barrier()
			}
		}
		out := []float64{0}
		mpi.Reduce(c, []float64{total}, out, mpi.Sum, 0)
		if me == 0 {
			fmt.Println(out[0] > 0)
		}
	})
}
