// Command swapbuffers smooths each rank's share of a line of cells a
// step at a time, the new values into a second buffer that then trades
// places with the first (cur, next = next, cur), in rounds of -block
// steps between Allreduces of the first cell; rank 0 smooths the whole
// line once more at the end, a second call of the kernel. The round's
// loop is reduced though what it leaves steers the next round's calls
// (the kernel counts over the buffer it is given): its buffers only
// trade places, so the trip count tells which is which after it.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 100000, "cells")
	steps := flag.Int("steps", 200, "steps")
	block := flag.Int("block", 20, "steps between Allreduces")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *steps, *block) })
}

func run(c *mpi.Comm, n, steps, block int) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*n/size, (rank+1)*n/size
	cur, next := make([]float64, hi-lo+2), make([]float64, hi-lo+2)
	for i := range cur {
		cur[i] = float64(lo + i)
	}
	first := []float64{0}
	for s := 0; s < steps; s += block {
		for k := 0; k < block; k++ {
			smooth(next, cur)
			cur, next = next, cur
		}
		mpi.Allreduce(c, cur[1:2], first, mpi.Max)
	}
	if rank == 0 {
		whole := make([]float64, n)
		smooth(whole, whole)
		fmt.Println(first[0], whole[0])
	}
}

// smooth sets each inner cell of out to the mean of in's cell and its
// neighbours.
func smooth(out, in []float64) {
	for i := 1; i < len(out)-1; i++ {
		out[i] = (in[i-1] + in[i] + in[i+1]) / 3
	}
}
