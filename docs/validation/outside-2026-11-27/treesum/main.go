// Command treesum integrates f(x) = 4/(1+x^2) over [0, 1] with the
// midpoint rule, -n intervals split over the ranks, -iters times; each
// time the ranks' partial sums are combined by a reduction tree written
// with Send and Recv (rank r receives from r+step while r is a multiple
// of 2*step, else sends to r-step and leaves), and the total goes back
// down the same tree, so that every rank has it.
//
//	go run . -np 8 -n 10000000
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 4000000, "intervals")
	iters := flag.Int("iters", 20, "integrations")
	flag.Parse()
	if *n < 1 || *iters < 1 {
		fmt.Fprintln(os.Stderr, "treesum: -n and -iters must be at least 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *iters) })
}

func run(c *mpi.Comm, n, iters int) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*n/size, (rank+1)*n/size
	h := 1 / float64(n)
	var pi float64
	c.BeginInterval(1)
	for range iters {
		part := []float64{integrate(lo, hi, h)}
		total := treeReduce(c, part)
		treeBcast(c, total)
		pi = total[0]
	}
	c.EndInterval(1)
	if rank == 0 {
		fmt.Printf("treesum: pi ~ %.12f (error %.1e) on %d ranks\n", pi, math.Abs(pi-math.Pi), size)
	}
}

// integrate is the midpoint rule's sum over intervals [lo, hi), times h.
func integrate(lo, hi int, h float64) float64 {
	s := 0.0
	for i := lo; i < hi; i++ {
		x := (float64(i) + 0.5) * h
		s += 4 / (1 + x*x)
	}
	return s * h
}

// treeReduce adds up part over the ranks along a binomial tree; rank 0
// returns the total, the others what they had added when they sent.
func treeReduce(c *mpi.Comm, part []float64) []float64 {
	rank, size := c.Rank(), c.Size()
	in := []float64{0}
	for step := 1; step < size; step *= 2 {
		if rank%(2*step) != 0 {
			mpi.Send(c, part, rank-step, step)
			break
		}
		if rank+step < size {
			mpi.Recv(c, in, rank+step, step)
			part[0] += in[0]
		}
	}
	return part
}

// treeBcast sends rank 0's value down the tree treeReduce went up.
func treeBcast(c *mpi.Comm, v []float64) {
	rank, size := c.Rank(), c.Size()
	top := 1
	for top < size {
		top *= 2
	}
	for step := top / 2; step >= 1; step /= 2 {
		switch {
		case rank%(2*step) == 0 && rank+step < size:
			mpi.Send(c, v, rank+step, downTag+step)
		case rank%(2*step) == step:
			mpi.Recv(c, v, rank-step, downTag+step)
		}
	}
}

// downTag marks treeBcast's messages, apart from treeReduce's.
const downTag = 1 << 20
