package main

import (
	"math"

	"github.com/parpredict/parpredict/mpi"
)

// gatherField collects the ranks' blocks on rank 0 (Gatherv, in rank
// order) and lays them out as the m x m interior, row by row; other ranks
// get nil.
func gatherField(c *mpi.Comm, g procGrid, u []float64, b block, m int) []float64 {
	w := b.cols + 2
	mine := make([]float64, 0, b.rows*b.cols)
	for i := 1; i <= b.rows; i++ {
		mine = append(mine, u[i*w+1:i*w+1+b.cols]...)
	}
	size := g.px * g.py
	counts, displs := make([]int, size), make([]int, size)
	off := 0
	for r := range size {
		rb := g.block(r, m)
		counts[r], displs[r] = rb.rows*rb.cols, off
		off += counts[r]
	}
	var blocks []float64
	if c.Rank() == 0 {
		blocks = make([]float64, m*m)
	}
	mpi.Gatherv(c, mine, blocks, counts, displs, 0)
	if c.Rank() != 0 {
		return nil
	}
	field := make([]float64, m*m)
	for r := range size {
		rb := g.block(r, m)
		for i := 0; i < rb.rows; i++ {
			row := blocks[displs[r]+i*rb.cols : displs[r]+(i+1)*rb.cols]
			copy(field[(rb.row+i)*m+rb.col:], row)
		}
	}
	return field
}

// serialJacobi runs steps Jacobi steps on the whole n x n grid in one
// process and returns the field: the reference the parallel result must
// match.
func serialJacobi(n, steps int) []float64 {
	whole := block{rows: n - 2, cols: n - 2}
	u := make([]float64, n*n)
	unew := make([]float64, n*n)
	initBlock(u, whole)
	copy(unew, u)
	for s := 0; s < steps; s++ {
		jacobiStep(u, unew, n-2, n-2)
		u, unew = unew, u
	}
	return u
}

// interior is the m x m interior of an n x n field, row by row.
func interior(f []float64, n int) []float64 {
	m := n - 2
	out := make([]float64, 0, m*m)
	for i := 1; i <= m; i++ {
		out = append(out, f[i*n+1:i*n+1+m]...)
	}
	return out
}

// maxDiff returns the index and size of the largest difference between
// got and want.
func maxDiff(got, want []float64) (int, float64) {
	at, worst := 0, 0.0
	for i := range want {
		if d := math.Abs(got[i] - want[i]); d > worst || math.IsNaN(d) {
			at, worst = i, d
		}
	}
	return at, worst
}
