package main

import (
	"fmt"
	"math"
)

// serialCG runs the same CG iteration in one process and returns the
// number of iterations it takes.
func serialCG(n, maxIt int, tol float64) int {
	cnt := n * n
	x := make([]float64, cnt)
	r := make([]float64, cnt)
	q := make([]float64, cnt)
	dir := make([]float64, (n+2)*n)
	pv := dir[n : (n+1)*n]
	initRHS(r, 0, n, n)
	copy(pv, r)
	rr := dot(r, r, cnt)
	it := 0
	for it < maxIt && rr > tol*tol {
		laplace(dir, q, n, n)
		alpha := rr / dot(pv, q, cnt)
		axpy(alpha, pv, x, cnt)
		axpy(-alpha, q, r, cnt)
		rrNew := dot(r, r, cnt)
		xpby(r, rrNew/rr, pv, cnt)
		rr = rrNew
		it++
	}
	return it
}

// residualNorm is |b - A x| for the whole n x n grid, computed serially.
func residualNorm(x []float64, n int) float64 {
	padded := make([]float64, (n+2)*n)
	copy(padded[n:(n+1)*n], x)
	ax := make([]float64, n*n)
	laplace(padded, ax, n, n)
	b := make([]float64, n*n)
	initRHS(b, 0, n, n)
	s := 0.0
	for i := range b {
		d := b[i] - ax[i]
		s += d * d
	}
	return math.Sqrt(s)
}

// checkSolution checks the gathered solution x after it parallel
// iterations: its true residual must be within 10*tol (unless the
// iteration limit stopped it) and a serial CG must need it iterations,
// give or take one.
func checkSolution(x []float64, n, it int, p params) error {
	res := residualNorm(x, n)
	if it < p.maxIt && !(res <= 10*p.tol) {
		return fmt.Errorf("residual |b - A x| = %.3e, want at most 10 * tol = %.3e", res, 10*p.tol)
	}
	serial := serialCG(n, p.maxIt, p.tol)
	if it < serial-1 || it > serial+1 {
		return fmt.Errorf("%d iterations, serial CG takes %d", it, serial)
	}
	fmt.Printf("check: |b - A x| = %.3e; serial CG takes %d iterations\n", res, serial)
	return nil
}
