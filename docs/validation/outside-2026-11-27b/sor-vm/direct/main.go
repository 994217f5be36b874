// Command sordirect is sor with the sweep indexing g.v itself instead of
// the rows g.row returns (the workaround for the finding in NOTES-B.md).
//
// sor solves Laplace's equation on an n x n grid (the top edge
// held at 1, the others at 0) by red-black successive over-relaxation.
// The interior rows are split in blocks over the ranks, each block with a
// halo row above and below; before each colour's sweep the ranks trade
// their edge rows with Sendrecv. Every -every iterations an Allreduce
// takes the largest change of the last sweep, and the iterations stop
// when it is below -tol (or after -maxit): how many there are depends on
// the data. With -check rank 0 gathers the grid and compares it, and the
// iteration count, with a serial run.
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

type params struct {
	n, maxit, every int
	omega, tol      float64
	check           bool
}

func main() {
	var p params
	flag.IntVar(&p.n, "n", 300, "interior points per side")
	flag.IntVar(&p.maxit, "maxit", 100000, "most iterations")
	flag.IntVar(&p.every, "every", 10, "iterations between convergence tests")
	flag.Float64Var(&p.omega, "omega", 1.9, "relaxation factor")
	flag.Float64Var(&p.tol, "tol", 1e-5, "stop when the largest change is below this")
	flag.BoolVar(&p.check, "check", false, "compare with a serial run on rank 0")
	flag.Parse()
	if p.n < 1 || p.maxit < 1 || p.every < 1 {
		fmt.Fprintln(os.Stderr, "sor: -n, -maxit and -every must be at least 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

// grid is a block of rows of the (n+2) x (n+2) grid, halo rows included:
// row 0 and row rows+1 are the neighbours' (or the boundary), row k is
// the global row first+k-1.
type grid struct {
	w, rows, first int
	v              []float64
}

func newGrid(n, lo, hi int) *grid {
	g := &grid{w: n + 2, rows: hi - lo, first: lo + 1}
	g.v = make([]float64, (g.rows+2)*g.w)
	if g.first == 1 { // the top boundary is this block's upper halo
		for j := range g.w {
			g.v[j] = 1
		}
	}
	return g
}

func (g *grid) row(k int) []float64 { return g.v[k*g.w : (k+1)*g.w] }

// sweep relaxes the points of one colour ((i+j)%2 == colour, i and j
// global) and returns the largest change.
func (g *grid) sweep(colour int, omega float64) float64 {
	w, v, d := g.w, g.v, 0.0
	for k := 1; k <= g.rows; k++ {
		i := g.first + k - 1
		for j := 1 + (i+1+colour)%2; j < w-1; j += 2 {
			at := k*w + j
			r := 0.25*(v[at-w]+v[at+w]+v[at-1]+v[at+1]) - v[at]
			v[at] += omega * r
			d = max(d, math.Abs(omega*r))
		}
	}
	return d
}

// halo trades edge rows with the ranks above and below.
func (g *grid) halo(c *mpi.Comm) {
	rank, size := c.Rank(), c.Size()
	if rank > 0 {
		mpi.Sendrecv(c, g.row(1), rank-1, 0, g.row(0), rank-1, 1)
	}
	if rank < size-1 {
		mpi.Sendrecv(c, g.row(g.rows), rank+1, 1, g.row(g.rows+1), rank+1, 0)
	}
}

func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	if size > p.n {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "sor: more ranks (%d) than rows (%d)\n", size, p.n)
		}
		c.Abort(2)
	}
	lo, hi := rank*p.n/size, (rank+1)*p.n/size
	g := newGrid(p.n, lo, hi)
	local, global := make([]float64, 1), make([]float64, 1)

	t0 := mpi.Wtime()
	c.BeginInterval(1)
	residual, it := math.Inf(1), 0
	for residual > p.tol && it < p.maxit {
		g.halo(c)
		d := g.sweep(0, p.omega)
		g.halo(c)
		d = max(d, g.sweep(1, p.omega))
		it++
		if it%p.every == 0 {
			local[0] = d
			mpi.Allreduce(c, local, global, mpi.Max)
			residual = global[0]
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if !p.check {
		if rank == 0 {
			fmt.Printf("sor: %d x %d, %d iterations (change %.2e) on %d ranks in %.3f s\n", p.n, p.n, it, residual, size, elapsed)
		}
		return
	}
	counts, displs := make([]int, size), make([]int, size)
	for r := range size {
		displs[r] = r * p.n / size * g.w
		counts[r] = (r+1)*p.n/size*g.w - displs[r]
	}
	var all []float64
	if rank == 0 {
		all = make([]float64, p.n*g.w)
	}
	mpi.Gatherv(c, g.v[g.w:(g.rows+1)*g.w], all, counts, displs, 0)
	if rank != 0 {
		return
	}
	s := newGrid(p.n, 0, p.n)
	sres, sit := math.Inf(1), 0
	for sres > p.tol && sit < p.maxit {
		d := max(s.sweep(0, p.omega), s.sweep(1, p.omega))
		sit++
		if sit%p.every == 0 {
			sres = d
		}
	}
	worst := 0.0
	for i, v := range s.v[s.w : (s.rows+1)*s.w] {
		worst = max(worst, math.Abs(v-all[i]))
	}
	if sit != it || worst != 0 {
		fmt.Fprintf(os.Stderr, "sor: check failed: %d iterations (serial %d), largest difference %.2e\n", it, sit, worst)
		c.Abort(1)
	}
	fmt.Printf("sor: %d x %d, %d iterations (change %.2e) on %d ranks in %.3f s, check passed\n", p.n, p.n, it, residual, size, elapsed)
}
