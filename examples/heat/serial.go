package main

import "math"

// serialJacobi runs steps Jacobi steps on the whole n x n grid in one
// process and returns the field: the reference the parallel result must
// match.
func serialJacobi(n, steps int) []float64 {
	u := make([]float64, n*n)
	unew := make([]float64, n*n)
	initGrid(u, 0, n-2, n)
	copy(unew, u)
	for s := 0; s < steps; s++ {
		jacobiStep(u, unew, n-2, n)
		u, unew = unew, u
	}
	return u
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
