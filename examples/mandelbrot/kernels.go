package main

// The image covers [xMin, xMax] x [yMin, yMax] of the complex plane.
const (
	xMin, xMax = -2.0, 1.0
	yMin, yMax = -1.5, 1.5
)

// mandelRow fills row (w pixels) with the escape counts of image row y of
// an h-row image.
func mandelRow(row []int32, y, w, h, maxIter int) {
	cy := yMin + (float64(y)+0.5)*(yMax-yMin)/float64(h)
	for x := 0; x < w; x++ {
		cx := xMin + (float64(x)+0.5)*(xMax-xMin)/float64(w)
		row[x] = escape(cx, cy, maxIter)
	}
}

// escape iterates z = z*z + c from 0 and returns the number of steps before
// |z| > 2, or maxIter if it stays bounded: the data-dependent inner loop.
func escape(cx, cy float64, maxIter int) int32 {
	zr, zi := 0.0, 0.0
	it := 0
	for it < maxIter && zr*zr+zi*zi <= 4 {
		zr, zi = zr*zr-zi*zi+cx, 2*zr*zi+cy
		it++
	}
	return int32(it)
}

// serialImage computes the whole image in one process: the reference the
// parallel result must match.
func serialImage(w, h, maxIter int) []int32 {
	img := make([]int32, w*h)
	for y := 0; y < h; y++ {
		mandelRow(img[y*w:(y+1)*w], y, w, h, maxIter)
	}
	return img
}

// sum is the total of the counts in v.
func sum(v []int32) int64 {
	s := int64(0)
	for _, x := range v {
		s += int64(x)
	}
	return s
}

// imbalance is max/mean of the per-rank work (1 when perfectly balanced).
func imbalance(work []int64) float64 {
	total, most := int64(0), int64(0)
	for _, x := range work {
		total += x
		most = max(most, x)
	}
	if total == 0 {
		return 1
	}
	return float64(most) * float64(len(work)) / float64(total)
}
