// Command halo2d solves the 2-D heat (Laplace) equation on an n x n grid
// by Jacobi iteration, like heat, but with the grid's interior split in
// both directions: the ranks form a px x py process grid (as square as
// the rank count allows) and each owns a block of rows and columns. Every
// step each rank posts receives from its up to four neighbours, sends
// them its edge rows and packed edge columns (Irecv, Isend, Waitall: the
// halo exchange of stencil codes), then updates its block.
//
//	go run . -np 4 -n 256 -steps 100
//
// The grid's edge is held fixed: 1 on the top row, 0 elsewhere. After the
// steps the ranks agree on the last step's largest change (Allreduce Max),
// and rank 0 gathers the blocks and compares the field with a serial
// Jacobi run of the same number of steps (skip with -check=false); its
// last line is "elapsed: <seconds> s", from a Barrier before the first
// step to the end of the gather.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 256, "grid size (n x n points, including the fixed edge)")
	steps := flag.Int("steps", 100, "Jacobi steps")
	check := flag.Bool("check", true, "compare the field with a serial Jacobi run on rank 0")
	flag.Parse()
	switch {
	case *n < 3:
		fmt.Fprintf(os.Stderr, "halo2d: -n must be at least 3 (a grid with one interior point), got %d\n", *n)
		os.Exit(2)
	case *steps < 1:
		fmt.Fprintf(os.Stderr, "halo2d: -steps must be at least 1, got %d\n", *steps)
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *steps, *check) })
}

// run is one rank's part of the program.
func run(c *mpi.Comm, n, steps int, check bool) {
	rank, size := c.Rank(), c.Size()
	m := n - 2 // interior rows and columns, distributed
	g := newProcGrid(size)
	if m < g.px || m < g.py {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "halo2d: -n %d gives %d interior rows and columns, fewer than the %d x %d process grid of %d ranks; use a larger -n or fewer ranks\n", n, m, g.px, g.py, size)
		}
		c.Abort(2)
	}
	b := g.block(rank, m)
	w := b.cols + 2 // local row length: the block and a halo column on each side

	u := make([]float64, (b.rows+2)*w)
	unew := make([]float64, (b.rows+2)*w)
	initBlock(u, b)
	copy(unew, u)
	h := newHalo(g, rank, b)

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	change := 0.0
	for step := 0; step < steps; step++ {
		h.exchange(c, u)
		change = jacobiStep(u, unew, b.rows, b.cols)
		u, unew = unew, u
	}
	local, global := []float64{change}, []float64{0}
	mpi.Allreduce(c, local, global, mpi.Max)
	c.EndInterval(1)
	field := gatherField(c, g, u, b, m)
	elapsed := mpi.Wtime() - t0

	if rank != 0 {
		return
	}
	fmt.Printf("halo2d: n=%d ranks=%d grid=%dx%d steps=%d last change=%.3e mean=%.6f\n", n, size, g.px, g.py, steps, global[0], mean(field))
	if check {
		want := serialJacobi(n, steps)
		if i, d := maxDiff(field, interior(want, n)); d > 1e-12 {
			fmt.Fprintf(os.Stderr, "halo2d: check failed: u[%d][%d] = %.17g, serial Jacobi gives %.17g (difference %.3g > 1e-12)\n",
				i/m+1, i%m+1, field[i], want[(i/m+1)*n+i%m+1], d)
			c.Abort(1)
		}
		fmt.Printf("check: field equals the serial Jacobi field after %d steps\n", steps)
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}
