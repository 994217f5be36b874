// Command spmv runs power iteration on a random sparse symmetric-pattern
// matrix of -n rows stored in compressed sparse rows (CSR), the rows
// split over the ranks in equal blocks: each iteration gathers the whole
// vector (Allgather), multiplies the rank's rows by it, and normalises
// the result (Allreduce of the squared norm). Rows have between 1 and
// 2*-nnz nonzeros, placed within -band of the diagonal.
//
//	go run . -np 4 -n 200000
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

// csr is a block of rows in compressed sparse row form.
type csr struct {
	rowPtr []int
	col    []int
	val    []float64
}

func main() {
	n := flag.Int("n", 100000, "rows (a multiple of the rank count)")
	nnz := flag.Int("nnz", 12, "mean nonzeros per row")
	band := flag.Int("band", 2000, "nonzeros lie within this distance of the diagonal")
	iters := flag.Int("iters", 30, "power iterations")
	flag.Parse()
	if *n < 1 || *nnz < 1 || *band < 1 || *iters < 1 {
		fmt.Fprintln(os.Stderr, "spmv: -n, -nnz, -band and -iters must be at least 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *nnz, *band, *iters) })
}

func run(c *mpi.Comm, n, nnz, band, iters int) {
	rank, size := c.Rank(), c.Size()
	if n%size != 0 {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "spmv: -n %d is not a multiple of %d ranks\n", n, size)
		}
		c.Abort(2)
	}
	rows := n / size
	first := rank * rows
	a := build(first, rows, n, nnz, band)
	x := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	mine := make([]float64, rows)
	norm := []float64{0}
	lambda := 0.0
	c.BeginInterval(1)
	for range iters {
		a.multiply(x, mine)
		local := []float64{dot(mine, mine)}
		mpi.Allreduce(c, local, norm, mpi.Sum)
		lambda = math.Sqrt(norm[0])
		scale(mine, 1/lambda)
		mpi.Allgather(c, mine, x)
	}
	c.EndInterval(1)
	if rank == 0 {
		fmt.Printf("spmv: n=%d ranks=%d largest eigenvalue ~ %.6f\n", n, size, lambda)
	}
}

// build makes rows first .. first+rows-1 of the matrix: row i has
// 1 + (i*7919 % (2*nnz-1)) nonzeros, at columns within band of i.
func build(first, rows, n, nnz, band int) *csr {
	a := &csr{rowPtr: make([]int, rows+1)}
	for r := range rows {
		i := first + r
		k := 1 + i*7919%(2*nnz-1)
		for j := range k {
			col := (i + (j*2654435761+i)%(2*band+1) - band + n) % n
			a.col = append(a.col, col)
			a.val = append(a.val, 1/float64(1+j))
		}
		a.rowPtr[r+1] = len(a.col)
	}
	return a
}

// multiply sets y to the block's rows times x.
func (a *csr) multiply(x, y []float64) {
	for r := range y {
		s := 0.0
		for k := a.rowPtr[r]; k < a.rowPtr[r+1]; k++ {
			s += a.val[k] * x[a.col[k]]
		}
		y[r] = s
	}
}

func dot(u, v []float64) float64 {
	s := 0.0
	for i := range u {
		s += u[i] * v[i]
	}
	return s
}

func scale(u []float64, f float64) {
	for i := range u {
		u[i] *= f
	}
}
