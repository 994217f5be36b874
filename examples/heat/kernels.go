package main

import "math"

// initGrid fills rows+2 grid rows starting at global row lo (the halo or
// edge row above this rank's block): 1 on the grid's top row, 0 elsewhere.
func initGrid(u []float64, lo, rows, n int) {
	for k := 0; k < rows+2; k++ {
		v := 0.0
		if lo+k == 0 {
			v = 1
		}
		for j := 0; j < n; j++ {
			u[k*n+j] = v
		}
	}
}

// jacobiStep sets every interior point of rows 1..rows of unew to the mean
// of its four neighbours in u and returns the largest change. Columns 0 and
// n-1 are the fixed edge and are not touched.
func jacobiStep(u, unew []float64, rows, n int) float64 {
	change := 0.0
	for i := 1; i <= rows; i++ {
		for j := 1; j < n-1; j++ {
			v := 0.25 * (u[(i-1)*n+j] + u[(i+1)*n+j] + u[i*n+j-1] + u[i*n+j+1])
			d := math.Abs(v - u[i*n+j])
			if d > change {
				change = d
			}
			unew[i*n+j] = v
		}
	}
	return change
}

// mean is the average of the values of f.
func mean(f []float64) float64 {
	s := 0.0
	for _, v := range f {
		s += v
	}
	return s / float64(len(f))
}
