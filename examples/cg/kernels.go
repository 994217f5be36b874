package main

// initRHS sets the right-hand side b for rows rows of the grid starting at
// global row lo: a smooth positive load with a little deterministic
// variation.
func initRHS(b []float64, lo, rows, n int) {
	for i := 0; i < rows; i++ {
		for j := 0; j < n; j++ {
			b[i*n+j] = 1 + 0.1*float64(((lo+i)*7+j*3)%5)
		}
	}
}

// laplace computes q = A p for rows grid rows: p holds those rows at local
// rows 1..rows with the neighbouring rows (or zeros at the grid's edge) in
// rows 0 and rows+1. Points outside the grid's columns count as zero.
func laplace(p, q []float64, rows, n int) {
	for i := 1; i <= rows; i++ {
		for j := 0; j < n; j++ {
			v := 4*p[i*n+j] - p[(i-1)*n+j] - p[(i+1)*n+j]
			if j > 0 {
				v -= p[i*n+j-1]
			}
			if j < n-1 {
				v -= p[i*n+j+1]
			}
			q[(i-1)*n+j] = v
		}
	}
}

// dot is the sum of a[i]*b[i] over the first cnt elements.
func dot(a, b []float64, cnt int) float64 {
	s := 0.0
	for i := 0; i < cnt; i++ {
		s += a[i] * b[i]
	}
	return s
}

// axpy sets y = y + alpha*x over the first cnt elements.
func axpy(alpha float64, x, y []float64, cnt int) {
	for i := 0; i < cnt; i++ {
		y[i] += alpha * x[i]
	}
}

// xpby sets y = x + beta*y over the first cnt elements.
func xpby(x []float64, beta float64, y []float64, cnt int) {
	for i := 0; i < cnt; i++ {
		y[i] = x[i] + beta*y[i]
	}
}
