// Command lu factors an n x n matrix A = P L U with partial pivoting
// (right-looking, unblocked). Rows are dealt cyclically: global row i
// lives on rank i % P, stored in one flat []float64 of the rank's rows.
// For every column k the ranks find the pivot together (each its largest
// |a[i][k]| over its rows i >= k, then an Allgather of (value, row) pairs
// packed in float64s, the largest winning, ties to the lower row), the
// owners of rows k and piv swap them (Sendrecv, or in place), the owner
// of row k broadcasts its tail k..n-1 (Bcast, shrinking with k), and
// every rank updates its rows below k (a triangular loop nest). With
// -check rank 0 gathers the factors and compares them with a serial run
// of the same algorithm, and the product L U with the permuted A.
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

// entry is the input matrix's element (i, j), diagonally weak enough that
// pivoting matters.
func entry(i, j, n int) float64 {
	h := uint64(i*n+j+1) * 0x9E3779B97F4A7C15
	h ^= h >> 31
	v := float64(h%2001)/1000 - 1
	if i == j {
		v *= 0.1
	}
	return v
}

// Dist is the cyclic row distribution of an n x n matrix over size ranks,
// seen from rank.
type Dist struct {
	n, rank, size int
}

// Local is how many rows the rank holds.
func (d Dist) Local() int { return (d.n - d.rank + d.size - 1) / d.size }

// Global is the global index of local row l.
func (d Dist) Global(l int) int { return l*d.size + d.rank }

// Owner is the rank holding global row i.
func (d Dist) Owner(i int) int { return i % d.size }

// LocalOf is the local index of global row i, which the rank must own.
func (d Dist) LocalOf(i int) int { return i / d.size }

// FirstAfter is the first local row whose global index is > k.
func (d Dist) FirstAfter(k int) int {
	if k < d.rank {
		return 0
	}
	return (k-d.rank)/d.size + 1
}

// FirstFrom is the first local row whose global index is >= k.
func FirstFrom(d Dist, k int) int { return d.FirstAfter(k - 1) }

type factor struct {
	c    *mpi.Comm
	d    Dist
	a    []float64 // local rows, row l at a[l*n:(l+1)*n]
	perm []int     // perm[k] = the row swapped into place k
	piv  []float64 // the broadcast pivot row's tail
	pair []float64
	all  []float64
}

func (f *factor) row(l int) []float64 { n := f.d.n; return f.a[l*n : (l+1)*n] }

// maxLoc finds the global pivot of column k: the largest |a[i][k]|, i >= k.
func (f *factor) maxLoc(k int) int {
	best, at := -1.0, -1
	for l := FirstFrom(f.d, k); l < f.d.Local(); l++ {
		if v := math.Abs(f.a[l*f.d.n+k]); v > best {
			best, at = v, f.d.Global(l)
		}
	}
	f.pair[0], f.pair[1] = best, float64(at)
	mpi.Allgather(f.c, f.pair, f.all)
	best, at = -1, -1
	for r := 0; r < f.d.size; r++ {
		v, i := f.all[2*r], int(f.all[2*r+1])
		if i >= 0 && (v > best || (v == best && i < at)) {
			best, at = v, i
		}
	}
	return at
}

// swap exchanges global rows k and p between their owners.
func (f *factor) swap(k, p int) {
	if k == p {
		return
	}
	ok, op := f.d.Owner(k), f.d.Owner(p)
	me := f.d.rank
	switch {
	case ok == me && op == me:
		rk, rp := f.row(f.d.LocalOf(k)), f.row(f.d.LocalOf(p))
		for j := range rk {
			rk[j], rp[j] = rp[j], rk[j]
		}
	case ok == me:
		r := f.row(f.d.LocalOf(k))
		mpi.Sendrecv(f.c, r, op, 1, f.piv, op, 1)
		copy(r, f.piv)
	case op == me:
		r := f.row(f.d.LocalOf(p))
		mpi.Sendrecv(f.c, r, ok, 1, f.piv, ok, 1)
		copy(r, f.piv)
	}
}

func (f *factor) run() {
	n := f.d.n
	for k := 0; k < n; k++ {
		p := f.maxLoc(k)
		f.perm[k] = p
		f.swap(k, p)
		tail := f.piv[k:n]
		if f.d.Owner(k) == f.d.rank {
			copy(tail, f.row(f.d.LocalOf(k))[k:])
		}
		mpi.Bcast(f.c, tail, f.d.Owner(k))
		pkk := tail[0]
		update := func(r []float64) {
			l := r[k] / pkk
			r[k] = l
			for j := k + 1; j < n; j++ {
				r[j] -= l * f.piv[j]
			}
		}
		for l := f.d.FirstAfter(k); l < f.d.Local(); l++ {
			update(f.row(l))
		}
	}
}

func main() {
	n := flag.Int("n", 1000, "matrix side")
	check := flag.Bool("check", false, "compare with a serial factorisation on rank 0")
	flag.Parse()
	if *n < 1 {
		fmt.Fprintln(os.Stderr, "lu: -n must be >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *check) })
}

func run(c *mpi.Comm, n int, check bool) {
	d := Dist{n: n, rank: c.Rank(), size: c.Size()}
	f := &factor{c: c, d: d, a: make([]float64, d.Local()*n), perm: make([]int, n),
		piv: make([]float64, n), pair: make([]float64, 2), all: make([]float64, 2*d.size)}
	for l := 0; l < d.Local(); l++ {
		r := f.row(l)
		for j := range r {
			r[j] = entry(d.Global(l), j, n)
		}
	}

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	f.run()
	c.EndInterval(1)
	c.Barrier()
	elapsed := mpi.Wtime() - t0
	if c.Rank() == 0 {
		fmt.Printf("lu: %d x %d on %d ranks\nelapsed: %.6f s\n", n, n, c.Size(), elapsed)
	}
	if !check {
		return
	}
	// gather the rows: rank r's local rows, in order, with counts per rank
	counts, displs := make([]int, d.size), make([]int, d.size)
	for r := 0; r < d.size; r++ {
		counts[r] = Dist{n, r, d.size}.Local() * n
		if r > 0 {
			displs[r] = displs[r-1] + counts[r-1]
		}
	}
	var got []float64
	if c.Rank() == 0 {
		got = make([]float64, n*n)
	}
	mpi.Gatherv(c, f.a, got, counts, displs, 0)
	if c.Rank() != 0 {
		return
	}
	lu := make([][]float64, n) // in global row order
	for r := 0; r < d.size; r++ {
		dr := Dist{n, r, d.size}
		for l := 0; l < dr.Local(); l++ {
			lu[dr.Global(l)] = got[displs[r]+l*n : displs[r]+(l+1)*n]
		}
	}
	// serial run of the same algorithm
	s := make([][]float64, n)
	for i := range s {
		s[i] = make([]float64, n)
		for j := range s[i] {
			s[i][j] = entry(i, j, n)
		}
	}
	sperm := make([]int, n)
	for k := 0; k < n; k++ {
		p, best := k, math.Abs(s[k][k])
		for i := k + 1; i < n; i++ {
			if v := math.Abs(s[i][k]); v > best {
				p, best = i, v
			}
		}
		sperm[k] = p
		s[k], s[p] = s[p], s[k]
		for i := k + 1; i < n; i++ {
			l := s[i][k] / s[k][k]
			s[i][k] = l
			for j := k + 1; j < n; j++ {
				s[i][j] -= l * s[k][j]
			}
		}
	}
	worst := 0.0
	for i := 0; i < n; i++ {
		if sperm[i] != f.perm[i] {
			fmt.Fprintf(os.Stderr, "lu: check failed: pivot %d is row %d, serial %d\n", i, f.perm[i], sperm[i])
			c.Abort(1)
		}
		for j := 0; j < n; j++ {
			worst = max(worst, math.Abs(s[i][j]-lu[i][j]))
		}
	}
	// residual of L U against the permuted A, on a few rows
	pa := make([][]float64, n)
	for i := range pa {
		pa[i] = make([]float64, n)
		for j := range pa[i] {
			pa[i][j] = entry(i, j, n)
		}
	}
	for k := 0; k < n; k++ {
		pa[k], pa[f.perm[k]] = pa[f.perm[k]], pa[k]
	}
	res := 0.0
	for i := 0; i < n; i += max(1, n/16) {
		for j := 0; j < n; j++ {
			sum := 0.0
			for m := 0; m <= min(i, j); m++ {
				lim := 1.0
				if m < i {
					lim = lu[i][m]
				}
				sum += lim * lu[m][j]
			}
			res = max(res, math.Abs(sum-pa[i][j]))
		}
	}
	if worst > 1e-9 || res > 1e-8*float64(n) {
		fmt.Fprintf(os.Stderr, "lu: check failed: factors differ by %.2e, residual %.2e\n", worst, res)
		c.Abort(1)
	}
	fmt.Printf("lu: check passed (factors differ by %.1e, residual %.1e)\n", worst, res)
}
