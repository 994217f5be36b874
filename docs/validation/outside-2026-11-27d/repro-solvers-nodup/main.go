// Command repro-solvers-nodup is solvers with Jacobi.Step written
// without closures, so that no two closures share the name main.Step$N.
// Command solvers solves the 2-D Poisson equation -Δu = 1 on an n x n
// grid (u = 0 on the boundary) with an iterative solver picked by
// -method: damped Jacobi or conjugate gradients. The solvers see the
// matrix only through a Stencil (rows split in blocks over the ranks; its
// Apply trades halo rows with Sendrecv) and the vector kernels through
// generic helpers that take closures; their dot products are summed over
// the ranks with Allreduce. Iterations stop when the residual's norm has
// fallen by -tol or after -maxit. With -check rank 0 gathers the solution
// and compares it, and the iteration count, with a serial run.
//
//	go run . -np 4 -check -method cg
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

// Dot is the dot product of a and b.
func Dot[T ~float64](a, b []T) T {
	var s T
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Map replaces every element x of xs by f(x).
func Map[T any](xs []T, f func(T) T) {
	for i, x := range xs {
		xs[i] = f(x)
	}
}

// Zip sets dst[i] = f(a[i], b[i]).
func Zip[T any](dst, a, b []T, f func(x, y T) T) {
	for i := range dst {
		dst[i] = f(a[i], b[i])
	}
}

// Stencil is the 5-point Laplacian on a block of rows of an n x n grid:
// rows first..first+rows-1. It keeps a copy of its argument with a halo
// row above and below.
type Stencil struct {
	n, rows, first int
	comm           *mpi.Comm // nil: the whole grid, no neighbours
	ext            []float64
}

func NewStencil(c *mpi.Comm, n, lo, hi int) *Stencil {
	return &Stencil{n: n, rows: hi - lo, first: lo, comm: c, ext: make([]float64, (hi-lo+2)*n)}
}

// Len is the length of the vectors the stencil works on.
func (s *Stencil) Len() int { return s.rows * s.n }

// Diag is the matrix's diagonal entry.
func (s *Stencil) Diag() float64 { return 4 }

func (s *Stencil) row(k int) []float64 { return s.ext[k*s.n : (k+1)*s.n] }

// halo fills ext's halo rows from the ranks above and below.
func (s *Stencil) halo() {
	if s.comm == nil {
		return
	}
	rank, size := s.comm.Rank(), s.comm.Size()
	if rank > 0 {
		mpi.Sendrecv(s.comm, s.row(1), rank-1, 0, s.row(0), rank-1, 1)
	}
	if rank < size-1 {
		mpi.Sendrecv(s.comm, s.row(s.rows), rank+1, 1, s.row(s.rows+1), rank+1, 0)
	}
}

// Apply sets y = A x.
func (s *Stencil) Apply(x, y []float64) {
	copy(s.ext[s.n:], x)
	s.halo()
	n, d := s.n, s.Diag()
	for k := 1; k <= s.rows; k++ {
		up, mid, down := s.row(k-1), s.row(k), s.row(k+1)
		out := y[(k-1)*n : k*n]
		for j := range n {
			v := d*mid[j] - up[j] - down[j]
			if j > 0 {
				v -= mid[j-1]
			}
			if j < n-1 {
				v -= mid[j+1]
			}
			out[j] = v
		}
	}
}

// Solver is one iterative method on A x = b.
type Solver interface {
	// Step does one iteration and returns the residual's norm.
	Step() float64
	// X is the current solution (this rank's part).
	X() []float64
}

// sumFunc sums a value over the ranks.
type sumFunc func(float64) float64

// Jacobi is damped Jacobi: x += omega D^-1 (b - A x).
type Jacobi struct {
	A           *Stencil
	x, b, ax, r []float64
	omega       float64
	sum         sumFunc
}

func (s *Jacobi) X() []float64 { return s.x }

func (s *Jacobi) Step() float64 {
	s.A.Apply(s.x, s.ax)
	for i := range s.r {
		s.r[i] = s.b[i] - s.ax[i]
	}
	norm := math.Sqrt(s.sum(Dot(s.r, s.r)))
	w := s.omega / s.A.Diag()
	for i := range s.x {
		s.x[i] += w * s.r[i]
	}
	return norm
}

// CG is the conjugate gradient method, started from x = 0.
type CG struct {
	A          *Stencil
	x, r, p, q []float64
	rr         float64
	sum        sumFunc
}

func (s *CG) X() []float64 { return s.x }

func (s *CG) Step() float64 {
	s.A.Apply(s.p, s.q)
	alpha := s.rr / s.sum(Dot(s.p, s.q))
	Zip(s.x, s.x, s.p, func(x, p float64) float64 { return x + alpha*p })
	Zip(s.r, s.r, s.q, func(r, q float64) float64 { return r - alpha*q })
	rr := s.sum(Dot(s.r, s.r))
	beta := rr / s.rr
	s.rr = rr
	Zip(s.p, s.r, s.p, func(r, p float64) float64 { return r + beta*p })
	return math.Sqrt(rr)
}

// newSolver builds the method named by method for A x = b (b all ones).
func newSolver(method string, A *Stencil, sum sumFunc) (Solver, error) {
	m := A.Len()
	b := make([]float64, m)
	Map(b, func(float64) float64 { return 1 })
	switch method {
	case "jacobi":
		return &Jacobi{A: A, x: make([]float64, m), b: b, ax: make([]float64, m), r: make([]float64, m), omega: 0.8, sum: sum}, nil
	case "cg":
		s := &CG{A: A, x: make([]float64, m), r: b, p: make([]float64, m), q: make([]float64, m), sum: sum}
		copy(s.p, s.r)
		s.rr = sum(Dot(s.r, s.r))
		return s, nil
	}
	return nil, fmt.Errorf("unknown method %q (want jacobi or cg)", method)
}

// solve iterates s until the residual's norm has fallen by tol or maxit
// steps; it returns the steps and the last norm.
func solve(s Solver, tol float64, maxit int) (int, float64) {
	it, norm, first := 0, math.Inf(1), 0.0
	for it < maxit && norm > tol*first {
		norm = s.Step()
		if it == 0 {
			first = norm
		}
		it++
	}
	return it, norm
}

type params struct {
	n, maxit int
	tol      float64
	method   string
	check    bool
}

func main() {
	var p params
	flag.IntVar(&p.n, "n", 400, "grid points per side")
	flag.IntVar(&p.maxit, "maxit", 200, "most iterations")
	flag.Float64Var(&p.tol, "tol", 1e-6, "stop when the residual has fallen by this factor")
	flag.StringVar(&p.method, "method", "cg", "jacobi or cg")
	flag.BoolVar(&p.check, "check", false, "compare with a serial run on rank 0")
	flag.Parse()
	if p.n < 1 || p.maxit < 1 {
		fmt.Fprintln(os.Stderr, "solvers: -n and -maxit must be at least 1")
		os.Exit(2)
	}
	if p.method != "jacobi" && p.method != "cg" {
		fmt.Fprintf(os.Stderr, "solvers: unknown method %q (want jacobi or cg)\n", p.method)
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	if size > p.n {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "solvers: more ranks (%d) than rows (%d)\n", size, p.n)
		}
		c.Abort(2)
	}
	lo, hi := rank*p.n/size, (rank+1)*p.n/size
	A := NewStencil(c, p.n, lo, hi)
	in, out := make([]float64, 1), make([]float64, 1)
	sum := func(v float64) float64 {
		in[0] = v
		mpi.Allreduce(c, in, out, mpi.Sum)
		return out[0]
	}
	s, err := newSolver(p.method, A, sum)
	if err != nil {
		fmt.Fprintln(os.Stderr, "solvers:", err)
		c.Abort(2)
	}

	t0 := mpi.Wtime()
	c.BeginInterval(1)
	it, norm := solve(s, p.tol, p.maxit)
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if !p.check {
		if rank == 0 {
			fmt.Printf("solvers: %s, %d x %d, %d iterations (residual %.3e) on %d ranks in %.3f s\n", p.method, p.n, p.n, it, norm, size, elapsed)
		}
		return
	}
	counts, displs := make([]int, size), make([]int, size)
	for r := range size {
		displs[r] = r * p.n / size * p.n
		counts[r] = (r+1)*p.n/size*p.n - displs[r]
	}
	var all []float64
	if rank == 0 {
		all = make([]float64, p.n*p.n)
	}
	mpi.Gatherv(c, s.X(), all, counts, displs, 0)
	if rank != 0 {
		return
	}
	ser, _ := newSolver(p.method, NewStencil(nil, p.n, 0, p.n), func(v float64) float64 { return v })
	sit, snorm := solve(ser, p.tol, p.maxit)
	worst, scale := 0.0, 0.0
	for i, v := range ser.X() {
		worst = max(worst, math.Abs(v-all[i]))
		scale = max(scale, math.Abs(v))
	}
	if sit != it || worst > 1e-9*scale || math.Abs(snorm-norm) > 1e-6*snorm {
		fmt.Fprintf(os.Stderr, "solvers: check failed: %d iterations (serial %d), largest difference %.2e of %.2e\n", it, sit, worst, scale)
		c.Abort(1)
	}
	fmt.Printf("solvers: %s, %d x %d, %d iterations (residual %.3e) on %d ranks in %.3f s, check passed (largest difference %.1e)\n",
		p.method, p.n, p.n, it, norm, size, elapsed, worst)
}
