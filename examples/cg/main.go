// Command cg solves A x = b by the conjugate gradient method, where A is the
// 2-D Laplacian (5-point stencil, Dirichlet edge) on an n x n grid, applied
// without storing the matrix. Grid rows are split into blocks; every
// matrix-vector product first exchanges the boundary rows of the search
// direction with the neighbours (Sendrecv), and each dot product is a local
// sum plus an Allreduce (Sum).
//
//	go run ./examples/cg -np 4 -n 128
//
// The iteration stops when the residual norm |r| is at most -tol (absolute)
// or after -maxit iterations. Rank 0 gathers x and checks it (skip with
// -check=false): the residual |b - A x|, computed serially, must be small,
// and a serial CG must take the same number of iterations, give or take one
// (the parallel dot products add in another order). Its last line is
// "elapsed: <seconds> s", from a Barrier before the first iteration to the
// end of the gather.
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
	n, maxIt int
	tol      float64
	check    bool
}

func main() {
	n := flag.Int("n", 128, "grid size (n x n unknowns)")
	maxIt := flag.Int("maxit", 10000, "iteration limit")
	tol := flag.Float64("tol", 1e-8, "stop when the residual norm is at most tol")
	check := flag.Bool("check", true, "check the residual and the iteration count on rank 0")
	flag.Parse()
	var bad string
	switch {
	case *n < 1:
		bad = fmt.Sprintf("-n must be at least 1, got %d", *n)
	case *maxIt < 0:
		bad = fmt.Sprintf("-maxit must not be negative, got %d", *maxIt)
	case !(*tol > 0):
		bad = fmt.Sprintf("-tol must be a positive number, got %g", *tol)
	}
	if bad != "" {
		fmt.Fprintf(os.Stderr, "cg: %s\n", bad)
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, params{n: *n, maxIt: *maxIt, tol: *tol, check: *check}) })
}

// run is one rank's part of the program.
func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	n := p.n
	if n < size {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "cg: -n %d gives %d grid rows, fewer than the %d ranks; use a larger -n or fewer ranks\n", n, n, size)
		}
		c.Abort(2)
	}
	lo, hi := rank*n/size, (rank+1)*n/size
	rows := hi - lo
	cnt := rows * n

	x := make([]float64, cnt)
	r := make([]float64, cnt)
	q := make([]float64, cnt)
	dir := make([]float64, (rows+2)*n) // search direction with halo rows 0 and rows+1
	pv := dir[n : (rows+1)*n]          // this rank's part of it
	initRHS(r, lo, rows, n)            // x = 0, so r = b
	copy(pv, r)
	counts, displs := rowLayout(size, n, n)
	var whole []float64 // the gathered x, on rank 0
	if rank == 0 {
		whole = make([]float64, n*n)
	}
	local, global := []float64{0}, []float64{0}

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	local[0] = dot(r, r, cnt)
	mpi.Allreduce(c, local, global, mpi.Sum)
	rr := global[0]
	it := 0
	for it < p.maxIt && rr > p.tol*p.tol {
		exchangeHalos(c, dir, rows, n)
		laplace(dir, q, rows, n)
		local[0] = dot(pv, q, cnt)
		mpi.Allreduce(c, local, global, mpi.Sum)
		alpha := rr / global[0]
		axpy(alpha, pv, x, cnt)
		axpy(-alpha, q, r, cnt)
		local[0] = dot(r, r, cnt)
		mpi.Allreduce(c, local, global, mpi.Sum)
		beta := global[0] / rr
		rr = global[0]
		xpby(r, beta, pv, cnt)
		it++
	}
	c.EndInterval(1)
	mpi.Gatherv(c, x, whole, counts, displs, 0)
	elapsed := mpi.Wtime() - t0

	if rank != 0 {
		return
	}
	fmt.Printf("cg: n=%d ranks=%d iterations=%d |r|=%.3e\n", n, size, it, math.Sqrt(rr))
	if rr > p.tol*p.tol {
		fmt.Printf("cg: not converged to %g after %d iterations\n", p.tol, it)
	}
	if p.check {
		if err := checkSolution(whole, n, it, p); err != nil {
			fmt.Fprintf(os.Stderr, "cg: check failed: %v\n", err)
			c.Abort(1)
		}
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

// rowLayout returns the element counts and offsets of the row blocks of an
// n-row, width-column array over size ranks: rank r holds rows
// [r*n/size, (r+1)*n/size).
func rowLayout(size, n, width int) (counts, displs []int) {
	counts, displs = make([]int, size), make([]int, size)
	for r := range size {
		lo, hi := r*n/size, (r+1)*n/size
		counts[r], displs[r] = (hi-lo)*width, lo*width
	}
	return counts, displs
}
