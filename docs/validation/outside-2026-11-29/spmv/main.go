// Command spmv runs power iteration y = A x, x = y / |y| on a banded sparse
// n x n matrix whose row density is sharply peaked in the middle rows:
// row i has base + peak*exp(-((i/n - 1/2)/width)^2) nonzeros, all within
// -band..+band of the diagonal. Rows are block-distributed; every rank
// builds its own rows (CSR), and every iteration exchanges a halo of band
// entries with each neighbour (Sendrecv) and normalises with Allreduce.
// With 2 ranks the two halves carry the same work; from 4 ranks on the
// middle ranks carry most of the nonzeros.
// -check gathers x (Gatherv) and reruns everything serially on rank 0.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type params struct {
	n, iters, band, base, peak int
	width                      float64
	check                      bool
}

// csr is a block of rows lo..hi-1 of the matrix; column indices are global.
type csr struct {
	lo, hi int
	rowptr []int
	col    []int
	val    []float64
}

func hash(a, b uint64) uint64 {
	h := a*0x9E3779B97F4A7C15 ^ (b + 0x632BE59BD9B4E019)
	h ^= h >> 31
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 29
	return h
}

// rowNnz is the number of nonzeros of row i.
func rowNnz(i int, p params) int {
	t := (float64(i)/float64(p.n) - 0.5) / p.width
	return p.base + int(float64(p.peak)*math.Exp(-t*t))
}

// build makes rows lo..hi-1 deterministically.
func build(lo, hi int, p params) *csr {
	m := &csr{lo: lo, hi: hi, rowptr: make([]int, 0, hi-lo+1)}
	m.rowptr = append(m.rowptr, 0)
	for i := lo; i < hi; i++ {
		k := rowNnz(i, p)
		for e := 0; e < k; e++ {
			h := hash(uint64(i), uint64(e))
			j := i + int(h%uint64(2*p.band+1)) - p.band
			if j < 0 {
				j = -j
			}
			if j >= p.n {
				j = 2*(p.n-1) - j
			}
			m.col = append(m.col, j)
			m.val = append(m.val, 0.5+float64(h>>40)/float64(1<<24))
		}
		m.rowptr = append(m.rowptr, len(m.col))
	}
	return m
}

// mul computes y[i-lo] = sum A[i][j] * x[j-xoff] for the block's rows.
func (m *csr) mul(x []float64, xoff int, y []float64) {
	for r := 0; r < m.hi-m.lo; r++ {
		s := 0.0
		for k := m.rowptr[r]; k < m.rowptr[r+1]; k++ {
			s += m.val[k] * x[m.col[k]-xoff]
		}
		y[r] = s
	}
}

func sumsq(y []float64) float64 {
	s := 0.0
	for _, v := range y {
		s += v * v
	}
	return s
}

// serial runs the whole power iteration on one process.
func serial(p params) ([]float64, float64) {
	m := build(0, p.n, p)
	x := make([]float64, p.n)
	for i := range x {
		x[i] = 1
	}
	y := make([]float64, p.n)
	lambda := 0.0
	for it := 0; it < p.iters; it++ {
		m.mul(x, 0, y)
		lambda = math.Sqrt(sumsq(y))
		for i := range y {
			x[i] = y[i] / lambda
		}
	}
	return x, lambda
}

func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*p.n/size, (rank+1)*p.n/size
	nloc, b := hi-lo, p.band
	m := build(lo, hi, p)
	// x holds [lo-b, hi+b); entries outside 0..n-1 stay unused.
	x := make([]float64, nloc+2*b)
	for i := b; i < b+nloc; i++ {
		x[i] = 1
	}
	y := make([]float64, nloc)
	loc, glob := make([]float64, 1), make([]float64, 1)
	lambda := 0.0
	c.BeginInterval(1)
	for it := 0; it < p.iters; it++ {
		// halo: my first b to the left, my last b to the right
		if rank > 0 && rank < size-1 {
			mpi.Sendrecv(c, x[b:2*b], rank-1, 0, x[b+nloc:], rank+1, 0)
			mpi.Sendrecv(c, x[nloc:nloc+b], rank+1, 1, x[:b], rank-1, 1)
		} else if size > 1 && rank == 0 {
			mpi.Recv(c, x[b+nloc:], 1, 0)
			mpi.Send(c, x[nloc:nloc+b], 1, 1)
		} else if size > 1 {
			mpi.Send(c, x[b:2*b], rank-1, 0)
			mpi.Recv(c, x[:b], rank-1, 1)
		}
		m.mul(x, lo-b, y)
		loc[0] = sumsq(y)
		mpi.Allreduce(c, loc, glob, mpi.Sum)
		lambda = math.Sqrt(glob[0])
		for i := range y {
			x[b+i] = y[i] / lambda
		}
	}
	c.EndInterval(1)
	if rank == 0 {
		fmt.Printf("P=%d lambda=%.12g nnz(rank0)=%d\n", size, lambda, len(m.col))
	}
	if !p.check {
		return
	}
	counts, displs := make([]int, size), make([]int, size)
	for r := 0; r < size; r++ {
		displs[r] = r * p.n / size
		counts[r] = (r+1)*p.n/size - displs[r]
	}
	var all []float64
	if rank == 0 {
		all = make([]float64, p.n)
	}
	mpi.Gatherv(c, x[b:b+nloc], all, counts, displs, 0)
	if rank != 0 {
		return
	}
	xs, ls := serial(p)
	maxd := 0.0
	for i := range xs {
		maxd = math.Max(maxd, math.Abs(xs[i]-all[i]))
	}
	ok := maxd < 1e-9 && math.Abs(ls-lambda) < 1e-9*ls
	fmt.Printf("check: serial lambda=%.12g max|dx|=%.3g ok=%v\n", ls, maxd, ok)
	if !ok {
		os.Exit(1)
	}
}

func main() {
	var p params
	flag.IntVar(&p.n, "n", 200000, "matrix rows")
	flag.IntVar(&p.iters, "iters", 40, "power iterations")
	flag.IntVar(&p.band, "band", 16, "half bandwidth")
	flag.IntVar(&p.base, "base", 3, "nonzeros per row away from the peak")
	flag.IntVar(&p.peak, "peak", 80, "extra nonzeros per row at the peak")
	flag.Float64Var(&p.width, "width", 0.08, "width of the peak (fraction of n)")
	flag.BoolVar(&p.check, "check", true, "verify serially on rank 0")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}
