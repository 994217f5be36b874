// Command scan computes the inclusive prefix sum of a large float64 array
// split in blocks over the ranks, by recursive doubling written with
// Sendrecv: each rank adds up its block, then in round r (r = 0, 1, ...
// while 1<<r < P) trades its running total with rank^(1<<r) and adds the
// totals of lower ranks to its offset; last it adds the offset to its
// block's local prefix sums. The scan is repeated -reps times over fresh
// copies of the data. With -check rank 0 gathers the result and compares
// it with a serial prefix sum.
//
//	go run . -np 4 -check
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 4000000, "elements in all")
	reps := flag.Int("reps", 60, "scans")
	check := flag.Bool("check", false, "compare with a serial prefix sum on rank 0")
	flag.Parse()
	if *n < 1 || *reps < 1 {
		fmt.Fprintln(os.Stderr, "scan: -n and -reps must be at least 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *reps, *check) })
}

// value is element i of the input.
func value(i int) float64 {
	return float64(i%1000)*0.001 + 1
}

func run(c *mpi.Comm, n, reps int, check bool) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*n/size, (rank+1)*n/size
	in := make([]float64, hi-lo)
	for i := range in {
		in[i] = value(lo + i)
	}
	out := make([]float64, len(in))
	mine, theirs := make([]float64, 1), make([]float64, 1)

	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for range reps {
		// Local inclusive prefix sums.
		s := 0.0
		for i, v := range in {
			s += v
			out[i] = s
		}
		// Recursive doubling over the block totals: after round r, total
		// holds the sum of the blocks of the 2^(r+1) ranks of this rank's
		// group, offset the part of it from ranks below this one.
		total, offset := s, 0.0
		for bit := 1; bit < size; bit <<= 1 {
			partner := rank ^ bit
			if partner >= size {
				continue
			}
			mine[0] = total
			mpi.Sendrecv(c, mine, partner, 0, theirs, partner, 0)
			if partner < rank {
				offset += theirs[0]
			}
			total += theirs[0]
		}
		// Shift the block by the sum of the lower ranks' blocks.
		for i := range out {
			out[i] += offset
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if !check {
		if rank == 0 {
			fmt.Printf("scan: %d scans of %d elements on %d ranks in %.3f s\n", reps, n, size, elapsed)
		}
		return
	}
	counts, displs := make([]int, size), make([]int, size)
	for r := range size {
		displs[r] = r * n / size
		counts[r] = (r+1)*n/size - displs[r]
	}
	var all []float64
	if rank == 0 {
		all = make([]float64, n)
	}
	mpi.Gatherv(c, out, all, counts, displs, 0)
	if rank != 0 {
		return
	}
	s, worst := 0.0, 0.0
	for i := range n {
		s += value(i)
		worst = max(worst, math.Abs(all[i]-s)/s)
	}
	if worst > 1e-12 {
		fmt.Fprintf(os.Stderr, "scan: check failed: relative error %.2e\n", worst)
		c.Abort(1)
	}
	fmt.Printf("scan: %d scans of %d elements on %d ranks in %.3f s, check passed (relative error %.1e)\n", reps, n, size, elapsed, worst)
}
