package main

// fillA sets A[i][j] to a small deterministic value (exact in float64).
func fillA(a []float64, n int) {
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a[i*n+j] = float64((i+2*j)%7) - 3
		}
	}
}

// fillB sets B[i][j] to a small deterministic value (exact in float64).
func fillB(b []float64, n int) {
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			b[i*n+j] = float64((3*i+j)%5) * 0.5
		}
	}
}

// multiplyRows computes rows x n rows of C = A x B, where a holds the same
// rows of A and b all of the n x n matrix B: the plain i, j, k triple loop.
func multiplyRows(a, b, c []float64, rows, n int) {
	for i := 0; i < rows; i++ {
		for j := 0; j < n; j++ {
			sum := 0.0
			for k := 0; k < n; k++ {
				sum += a[i*n+k] * b[k*n+j]
			}
			c[i*n+j] = sum
		}
	}
}

// trace is the sum of the diagonal of the n x n matrix m, a one-number
// summary of the result.
func trace(m []float64, n int) float64 {
	t := 0.0
	for i := 0; i < n; i++ {
		t += m[i*n+i]
	}
	return t
}

// firstDiff returns the first index where got and want differ, and false,
// or 0 and true when they are equal. The parallel and the serial multiply
// run the same loop in the same order, so they must agree bit for bit.
func firstDiff(got, want []float64) (int, bool) {
	for i := range want {
		if got[i] != want[i] {
			return i, false
		}
	}
	return 0, true
}
