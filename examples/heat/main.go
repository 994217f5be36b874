// Command heat solves the 2-D heat (Laplace) equation on an n x n grid by
// Jacobi iteration. The n-2 interior rows are split into row blocks; every
// step each rank exchanges its boundary rows with the neighbours above and
// below (Sendrecv), updates its block, and all ranks agree on the largest
// change of the step (Allreduce Max), which is the convergence test.
//
//	go run ./examples/heat -np 4 -n 256            # until the change is below -tol
//	go run ./examples/heat -np 4 -n 256 -steps 500 # exactly 500 steps
//
// The edge of the grid is held fixed: 1 on the top row, 0 elsewhere. Rank 0
// gathers the field and compares it with a serial Jacobi run of the same
// number of steps (skip with -check=false); its last line is
// "elapsed: <seconds> s", from a Barrier before the first step to the end of
// the gather.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

// params are the command-line settings.
type params struct {
	n        int
	maxSteps int
	tol      float64 // negative: run maxSteps steps
	check    bool
}

func main() {
	n := flag.Int("n", 256, "grid size (n x n points, including the fixed edge)")
	steps := flag.Int("steps", 0, "run exactly this many steps, ignoring -tol (0: iterate until converged)")
	maxSteps := flag.Int("maxsteps", 100000, "give up after this many steps when iterating to convergence")
	tol := flag.Float64("tol", 1e-4, "stop when the largest change of a step is at most tol")
	check := flag.Bool("check", true, "compare the field with a serial Jacobi run on rank 0")
	flag.Parse()
	p := params{n: *n, maxSteps: *maxSteps, tol: *tol, check: *check}
	if *steps > 0 {
		p.maxSteps, p.tol = *steps, -1
	}
	if err := p.validate(*steps); err != nil {
		fmt.Fprintf(os.Stderr, "heat: %v\n", err)
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

func (p params) validate(steps int) error {
	switch {
	case p.n < 3:
		return fmt.Errorf("-n must be at least 3 (a grid with one interior row), got %d", p.n)
	case steps < 0:
		return fmt.Errorf("-steps must not be negative, got %d", steps)
	case p.maxSteps < 1:
		return fmt.Errorf("-maxsteps must be at least 1, got %d", p.maxSteps)
	case steps == 0 && !(p.tol >= 0):
		return fmt.Errorf("-tol must be a non-negative number, got %g", p.tol)
	}
	return nil
}

// run is one rank's part of the program.
func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	n, m := p.n, p.n-2 // m interior rows are distributed
	if m < size {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "heat: -n %d gives %d interior rows, fewer than the %d ranks; use a larger -n or fewer ranks\n", n, m, size)
		}
		c.Abort(2)
	}
	lo, hi := rank*m/size, (rank+1)*m/size
	rows := hi - lo // this rank's interior rows are global rows lo+1 .. hi

	// Local rows 0 and rows+1 are halos (or the fixed edge at the ends).
	u := make([]float64, (rows+2)*n)
	unew := make([]float64, (rows+2)*n)
	initGrid(u, lo, rows, n)
	copy(unew, u)
	counts, displs := rowLayout(size, m, n)
	var field []float64 // the gathered interior, on rank 0
	if rank == 0 {
		field = make([]float64, m*n)
	}
	local, global := []float64{0}, []float64{math.Inf(1)}

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	step := 0
	for step < p.maxSteps && global[0] > p.tol {
		exchangeHalos(c, u, rows, n)
		local[0] = jacobiStep(u, unew, rows, n)
		u, unew = unew, u
		mpi.Allreduce(c, local, global, mpi.Max)
		step++
	}
	c.EndInterval(1)
	mpi.Gatherv(c, u[n:(rows+1)*n], field, counts, displs, 0)
	elapsed := mpi.Wtime() - t0

	if rank != 0 {
		return
	}
	fmt.Printf("heat: n=%d ranks=%d steps=%d last change=%.3e mean=%.6f\n", n, size, step, global[0], mean(field))
	if p.tol >= 0 && global[0] > p.tol {
		fmt.Printf("heat: not converged to %g after %d steps\n", p.tol, step)
	}
	if p.check {
		want := serialJacobi(n, step)
		if i, d := maxDiff(field, want[n:(m+1)*n]); d > 1e-12 {
			fmt.Fprintf(os.Stderr, "heat: check failed: u[%d][%d] = %.17g, serial Jacobi gives %.17g (difference %.3g > 1e-12)\n",
				i/n+1, i%n, field[i], want[n+i], d)
			c.Abort(1)
		}
		fmt.Printf("check: field equals the serial Jacobi field after %d steps\n", step)
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

// rowLayout returns the element counts and offsets of the row blocks of an
// m-row, width-column array over size ranks: rank r holds rows
// [r*m/size, (r+1)*m/size).
func rowLayout(size, m, width int) (counts, displs []int) {
	counts, displs = make([]int, size), make([]int, size)
	for r := range size {
		lo, hi := r*m/size, (r+1)*m/size
		counts[r], displs[r] = (hi-lo)*width, lo*width
	}
	return counts, displs
}
