// Command gauss (gauss-hoist: the copy of ../gauss with s.rows hoisted
// out of eliminate's row loop, the workaround of NOTES-A.md's finding 1)
// solves a dense linear system A x = b by Gaussian
// elimination without pivoting (A is generated strictly diagonally
// dominant from -seed, so no pivot is ever small). The rows of the
// augmented matrix [A | b] are dealt out cyclically: row i lives on rank
// i % P. At step k the owner of row k broadcasts its tail (columns k..n),
// and every rank eliminates column k from its own rows below k, so the
// steps get cheaper as k grows while the load stays balanced. Back
// substitution then goes from the last row up: the owner of row k solves
// for x[k] and broadcasts it, and every rank moves it into its right-hand
// sides above k. With -check rank 0 solves the same system serially and
// compares.
//
//	go run . -np 4 -n 600 -check
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type params struct {
	n     int
	seed  uint64
	check bool
}

func main() {
	var p params
	flag.IntVar(&p.n, "n", 1200, "unknowns")
	flag.Uint64Var(&p.seed, "seed", 1, "seed of the matrix")
	flag.BoolVar(&p.check, "check", false, "compare with a serial solve on rank 0")
	flag.Parse()
	if p.n < 1 {
		fmt.Fprintln(os.Stderr, "gauss: -n must be at least 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

// system is one rank's share of the augmented matrix: its rows in
// increasing global order, each n+1 long (the last entry is b).
type system struct {
	n, rank, size int
	rows          [][]float64
}

// global returns the global index of local row l.
func (s *system) global(l int) int { return l*s.size + s.rank }

// firstBelow returns the first local row whose global index is above k.
func (s *system) firstBelow(k int) int {
	// rows rank, rank+size, ...: the first one > k
	if k < s.rank {
		return 0
	}
	return (k-s.rank)/s.size + 1
}

func newSystem(n, rank, size int, seed uint64) *system {
	s := &system{n: n, rank: rank, size: size}
	for i := rank; i < n; i += size {
		s.rows = append(s.rows, makeRow(n, i, seed))
	}
	return s
}

// makeRow returns row i of [A | b], the same on every rank count.
func makeRow(n, i int, seed uint64) []float64 {
	g := rand.New(rand.NewPCG(seed, uint64(i)))
	row := make([]float64, n+1)
	sum := 0.0
	for j := range n {
		v := g.Float64()*2 - 1
		row[j] = v
		sum += math.Abs(v)
	}
	row[i] = sum + 1 // strictly diagonally dominant
	row[n] = g.Float64() * 10
	return row
}

func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	s := newSystem(p.n, rank, size, p.seed)
	pivot := make([]float64, p.n+1)
	x := make([]float64, p.n)

	c.BeginInterval(1)
	eliminate(c, s, pivot)
	backSubstitute(c, s, x)
	c.EndInterval(1)

	if rank == 0 {
		fmt.Printf("gauss: n=%d on %d ranks, x[0]=%.12g x[n-1]=%.12g\n", p.n, size, x[0], x[p.n-1])
		if p.check {
			want := solveSerial(p.n, p.seed)
			worst := 0.0
			for i := range x {
				worst = max(worst, math.Abs(x[i]-want[i])/max(1, math.Abs(want[i])))
			}
			if worst > 1e-9 {
				fmt.Printf("gauss: check FAILED, largest relative difference %.3g\n", worst)
				os.Exit(1)
			}
			fmt.Printf("gauss: check ok (largest relative difference %.3g)\n", worst)
		}
	}
}

// eliminate turns the distributed matrix upper triangular with a unit
// diagonal left implicit: after step k every row below k has a zero in
// column k.
func eliminate(c *mpi.Comm, s *system, pivot []float64) {
	n := s.n
	for k := 0; k < n-1; k++ {
		owner := k % s.size
		buf := pivot[k : n+1]
		if owner == s.rank {
			copy(buf, s.rows[k/s.size][k:])
		}
		mpi.Bcast(c, buf, owner)
		rows := s.rows // hoisted: len(s.rows) made the loop data-dependent
		for l := s.firstBelow(k); l < len(rows); l++ {
			eliminateRow(rows[l][k:], buf)
		}
	}
}

// eliminateRow subtracts the multiple of pivot (which starts on the
// diagonal) that zeroes row's first entry.
func eliminateRow(row, pivot []float64) {
	f := row[0] / pivot[0]
	row[0] = 0
	for j := 1; j < len(row); j++ {
		row[j] -= f * pivot[j]
	}
}

// backSubstitute solves the triangular system from the bottom up; every
// rank ends with all of x.
func backSubstitute(c *mpi.Comm, s *system, x []float64) {
	n := s.n
	xk := make([]float64, 1)
	for k := n - 1; k >= 0; k-- {
		owner := k % s.size
		if owner == s.rank {
			row := s.rows[k/s.size]
			xk[0] = row[n] / row[k]
		}
		mpi.Bcast(c, xk, owner)
		x[k] = xk[0]
		for l := 0; l < len(s.rows) && s.global(l) < k; l++ {
			row := s.rows[l]
			row[n] -= row[k] * xk[0]
		}
	}
}

// solveSerial solves the whole system on one rank the textbook way.
func solveSerial(n int, seed uint64) []float64 {
	a := make([][]float64, n)
	for i := range n {
		a[i] = makeRow(n, i, seed)
	}
	for k := 0; k < n-1; k++ {
		for i := k + 1; i < n; i++ {
			eliminateRow(a[i][k:], a[k][k:])
		}
	}
	x := make([]float64, n)
	for k := n - 1; k >= 0; k-- {
		sum := a[k][n]
		for j := k + 1; j < n; j++ {
			sum -= a[k][j] * x[j]
		}
		x[k] = sum / a[k][k]
	}
	return x
}
