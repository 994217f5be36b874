// repro-csrrows: repro-csr with the work-around of fault 1 (the edges
// appended inline, so m.lo and m.hi stay known). pull's inner loop over a
// CSR row, m.col[m.rowptr[i]:m.rowptr[i+1]], has bounds the prediction
// does not know, so the whole nest is "executed instead" of reduced: step
// by step, every edge of every row of every iteration.
package main

import (
	"flag"
	"fmt"
	"math"

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
		x := uint64(v)*0x9E3779B97F4A7C15 + 1
		for range 16 {
			x = x*6364136223846793005 + 1442695040888963407
			m.col = append(m.col, int32((x>>33)%uint64(n)))
		}
		m.rowptr = append(m.rowptr, len(m.col))
	}
	return m
}

func (m *csr) pull(x, cur, next []float64) float64 {
	change := 0.0
	for i := range m.rows() {
		s := 0.0
		for _, u := range m.col[m.rowptr[i]:m.rowptr[i+1]] {
			s += x[u]
		}
		next[i] = 0.1 + 0.05*s
		change += math.Abs(next[i] - cur[i])
	}
	return change
}

func main() {
	n := flag.Int("n", 200000, "rows")
	maxit := flag.Int("maxit", 100, "most iterations")
	tol := flag.Float64("tol", 1e-9, "tolerance")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		b := (*n + c.Size() - 1) / c.Size()
		lo := min(c.Rank()*b, *n)
		hi := min(lo+b, *n)
		m := build(*n, lo, hi)
		x, xn := make([]float64, b), make([]float64, b)
		all := make([]float64, b*c.Size())
		out := make([]float64, 1)
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		change := math.Inf(1)
		it := 0
		for it < *maxit && change >= *tol {
			mpi.Allgather(c, x, all)
			local := m.pull(all, x, xn)
			mpi.Allreduce(c, []float64{local}, out, mpi.Sum)
			change = out[0]
			copy(x, xn)
			it++
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("%d iterations, change %.2e\nelapsed: %.6f s\n", it, change, mpi.Wtime()-t0)
		}
	})
}
