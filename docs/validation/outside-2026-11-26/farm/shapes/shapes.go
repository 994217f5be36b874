// Package shapes holds the work items of the farm.
package shapes

import "math"

// Shape is one work item.
type Shape interface {
	Area(samples int) float64
}

// Disc is a disc of radius R, its area by midpoint rule.
type Disc struct{ R float64 }

// Area integrates sqrt(R^2-x^2) over [-R,R].
func (d Disc) Area(samples int) float64 {
	h := 2 * d.R / float64(samples)
	s := 0.0
	for i := 0; i < samples; i++ {
		x := -d.R + (float64(i)+0.5)*h
		s += math.Sqrt(d.R*d.R - x*x)
	}
	return 2 * s * h
}

// Box is a w x h rectangle sampled on a grid.
type Box struct{ W, H float64 }

// Area counts grid points; twice the work of a disc per sample.
func (b Box) Area(samples int) float64 {
	s := 0.0
	for i := 0; i < samples; i++ {
		for j := 0; j < 2; j++ {
			s += b.W * b.H / float64(2*samples)
		}
	}
	return s
}

// Make builds item k of a stream seeded by seed.
func Make(k int, seed uint64) Shape {
	x := (uint64(k)*6364136223846793005 + seed) >> 33
	if x%3 == 0 {
		return Box{W: float64(x%7 + 1), H: 2}
	}
	return Disc{R: float64(x%5 + 1)}
}

// Kind names what s is.
func Kind(s Shape) int {
	switch s.(type) {
	case Disc:
		return 0
	case Box:
		return 1
	}
	return -1
}
