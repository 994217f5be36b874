// Command sparse builds a rank's rows of a banded matrix in CSR form by
// appending (the build loop is reduced: the interpreter lengthens the
// slices by the appends' count) and multiplies by it every step, the
// inner loop running from rowPtr[i] to rowPtr[i+1]. The product's time
// must follow -n, the rows.
package main

import (
	"flag"

	"github.com/parpredict/parpredict/mpi"
)

type csr struct {
	rowPtr []int
	col    []int
	val    []float64
}

func build(lo, hi, n, band int) csr {
	m := csr{rowPtr: make([]int, 0, hi-lo+1)}
	m.rowPtr = append(m.rowPtr, 0)
	for i := lo; i < hi; i++ {
		for j := max(0, i-band); j < min(n, i+band+1); j++ {
			m.col = append(m.col, j)
			m.val = append(m.val, 1/float64(1+i+j))
		}
		m.rowPtr = append(m.rowPtr, len(m.col))
	}
	return m
}

func (m *csr) spmv(x, y []float64) {
	for i := 0; i+1 < len(m.rowPtr); i++ {
		s := 0.0
		for k := m.rowPtr[i]; k < m.rowPtr[i+1]; k++ {
			s += m.val[k] * x[m.col[k]]
		}
		y[i] = s
	}
}

func main() {
	n := flag.Int("n", 20000, "rows")
	band := flag.Int("band", 10, "half band width")
	steps := flag.Int("steps", 10, "products")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		lo, hi := c.Rank()**n/c.Size(), (c.Rank()+1)**n/c.Size()
		m := build(lo, hi, *n, *band)
		x := make([]float64, *n)
		y := make([]float64, hi-lo)
		in, out := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for s := 0; s < *steps; s++ {
			m.spmv(x, y)
			mpi.Allreduce(c, in, out, mpi.Sum)
		}
		c.EndInterval(1)
	})
}
