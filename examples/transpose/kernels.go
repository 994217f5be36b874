package main

// fill sets the rows rows of a, starting at global row lo, to
// A[i][j] = i*n + j: every element distinct, so a misplaced one shows.
func fill(a []float64, lo, rows, n int) {
	for i := 0; i < rows; i++ {
		for j := 0; j < n; j++ {
			a[i*n+j] = float64((lo+i)*n + j)
		}
	}
}

// pack copies the local rows x n block a into send, grouped by destination
// rank: for each rank r, the columns [r*n/size, (r+1)*n/size) of every
// local row, row by row.
func pack(a, send []float64, rows, n, size int) {
	off := 0
	for r := 0; r < size; r++ {
		clo, chi := r*n/size, (r+1)*n/size
		for i := 0; i < rows; i++ {
			for j := clo; j < chi; j++ {
				send[off] = a[i*n+j]
				off++
			}
		}
	}
}

// unpack transposes each received block into a: the block from rank r
// holds r's rows_r rows restricted to this rank's columns, which become
// column range [r*n/size, (r+1)*n/size) of this rank's new rows.
func unpack(recv, a []float64, rows, n, size int) {
	off := 0
	for r := 0; r < size; r++ {
		rlo, rhi := r*n/size, (r+1)*n/size
		for i := rlo; i < rhi; i++ {
			for k := 0; k < rows; k++ {
				a[k*n+i] = recv[off]
				off++
			}
		}
	}
}

// transposeSerial writes the transpose of the n x n matrix a into t.
func transposeSerial(a, t []float64, n int) {
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			t[j*n+i] = a[i*n+j]
		}
	}
}

// serialTransposes returns the initial matrix transposed reps times in one
// process: the reference the parallel result must match.
func serialTransposes(n, reps int) []float64 {
	a := make([]float64, n*n)
	t := make([]float64, n*n)
	fill(a, 0, n, n)
	for rep := 0; rep < reps; rep++ {
		transposeSerial(a, t, n)
		a, t = t, a
	}
	return a
}
