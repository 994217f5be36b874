// Command rows is a test program for the profiler: a balanced row loop
// (every row the same work) and an unbalanced one (row i costs i).
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 200, "rows")
	flag.Parse()
	if *n < 1 {
		fmt.Fprintln(os.Stderr, "rows: -n must be positive")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n) })
}

func run(c *mpi.Comm, n int) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*n/size, (rank+1)*n/size
	out := make([]float64, n)
	// The unbalanced loop runs first: on a busy machine the first
	// milliseconds of a process see disturbances that repeat from run to
	// run, and they must not fall on the loop whose balance is tested.
	odd := unbalanced(out, lo, hi, n)
	even := balanced(out, lo, hi, n)
	sum := []float64{even + odd}
	total := make([]float64, 1)
	mpi.Allreduce(c, sum, total, mpi.Sum)
	if rank == 0 {
		fmt.Printf("total %.3f\n", total[0])
	}
}

// balanced does n*512 units of work in every row.
func balanced(out []float64, lo, hi, n int) float64 {
	s := 0.0
	for i := lo; i < hi; i++ {
		x := 0.0
		for j := 0; j < n*512; j++ {
			x += math.Sqrt(float64(i + j))
		}
		out[i] = x
		s += x
	}
	return s
}

// unbalanced does i*1024 units of work in row i.
func unbalanced(out []float64, lo, hi, n int) float64 {
	s := 0.0
	for i := lo; i < hi; i++ {
		x := 0.0
		for j := 0; j < i*1024; j++ {
			if j%2 == 0 {
				x += math.Sqrt(float64(j))
			} else {
				x -= 1
			}
		}
		out[i] = x
		s += x
	}
	return s
}
