// Command fieldcall builds a rank's rows of a sparse matrix in a loop
// that stores a call's result into one field (m.col = edges(n, v,
// m.col)) and appends to another: the rank's bounds m.lo and m.hi stay
// known after it, and with them the count of the loop over m.rows(),
// whose inner loop runs over a row's entries, rowptr[i]..rowptr[i+1].
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type csr struct {
	lo, hi int
	rowptr []int
	col    []int32
}

func (m *csr) rows() int { return m.hi - m.lo }

// edges appends row v's 16 sources.
func edges(n, v int, out []int32) []int32 {
	x := uint64(v)*0x9E3779B97F4A7C15 + 1
	for range 16 {
		x = x*6364136223846793005 + 1442695040888963407
		out = append(out, int32((x>>33)%uint64(n)))
	}
	return out
}

func build(n, lo, hi int) *csr {
	m := &csr{lo: lo, hi: hi, rowptr: make([]int, 1, hi-lo+1)}
	for v := lo; v < hi; v++ {
		m.col = edges(n, v, m.col)
		m.rowptr = append(m.rowptr, len(m.col))
	}
	return m
}

func (m *csr) pull(x []float64) float64 {
	s := 0.0
	for i := range m.rows() {
		for _, u := range m.col[m.rowptr[i]:m.rowptr[i+1]] {
			s += x[u]
		}
	}
	return s
}

func main() {
	n := flag.Int("n", 20000, "rows")
	reps := flag.Int("reps", 20, "products")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		b := (*n + c.Size() - 1) / c.Size()
		lo := min(c.Rank()*b, *n)
		m := build(*n, lo, min(lo+b, *n))
		x := make([]float64, *n)
		c.Barrier()
		c.BeginInterval(1)
		sum := []float64{0}
		for range *reps {
			mpi.Allreduce(c, []float64{m.pull(x)}, sum, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(sum[0])
		}
	})
}
