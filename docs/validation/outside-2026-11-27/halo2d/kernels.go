package main

import "math"

// initBlock fills a block with its halo: 1 where the global row is the
// grid's top row, 0 elsewhere. Local row i is global row b.row+i and
// local column j global column b.col+j (the halo ring included).
func initBlock(u []float64, b block) {
	w := b.cols + 2
	for i := 0; i < b.rows+2; i++ {
		v := 0.0
		if b.row+i == 0 {
			v = 1
		}
		for j := 0; j < w; j++ {
			u[i*w+j] = v
		}
	}
}

// jacobiStep sets every interior point of the rows x cols block of unew
// to the mean of its four neighbours in u and returns the largest change.
func jacobiStep(u, unew []float64, rows, cols int) float64 {
	w := cols + 2
	change := 0.0
	for i := 1; i <= rows; i++ {
		for j := 1; j <= cols; j++ {
			v := 0.25 * (u[(i-1)*w+j] + u[(i+1)*w+j] + u[i*w+j-1] + u[i*w+j+1])
			d := math.Abs(v - u[i*w+j])
			if d > change {
				change = d
			}
			unew[i*w+j] = v
		}
	}
	return change
}

// packColumn copies column j of the interior rows of u (rows of length w)
// into buf.
func packColumn(buf, u []float64, w, j int) {
	for i := range buf {
		buf[i] = u[(i+1)*w+j]
	}
}

// unpackColumn copies buf into column j of the interior rows of u.
func unpackColumn(u, buf []float64, w, j int) {
	for i := range buf {
		u[(i+1)*w+j] = buf[i]
	}
}

// mean is the average of the values of f.
func mean(f []float64) float64 {
	s := 0.0
	for _, v := range f {
		s += v
	}
	return s / float64(len(f))
}
