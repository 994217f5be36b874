package bench

import "math"

// Sample is one ping-pong point: the one-way time of a message of Bytes.
type Sample struct {
	Bytes int
	Time  float64
}

// Line is t = Latency + bytes/Bandwidth for messages from From bytes on.
type Line struct {
	From      int
	Latency   float64
	Bandwidth float64
}

// fitLine fits t = a + b*m minimising the sum of relative errors
// |a + b*m - t| / t, by iteratively reweighted least squares: small and
// large messages count by their relative error, and one size whose
// launches caught another mode of the machine does not tilt the line
// (on the 2-core VM an 8-byte ping-pong once ran at 0.66 us one way while
// its neighbours took 1.6-1.7 us; the least-squares line then had a 0.72
// us latency and 77 MB/s, and the next calibration, without that
// point, 1.77 us and 5.4 GB/s). It returns the line and the sum of
// relative errors.
func fitLine(s []Sample) (Line, float64) {
	w := make([]float64, len(s))
	for i, p := range s {
		w[i] = 1 / math.Max(p.Time*p.Time, 1e-30)
	}
	a, b := weightedLine(s, w)
	for range fitRounds {
		for i, p := range s {
			t := math.Max(p.Time, 1e-15)
			r := math.Abs(a+b*float64(p.Bytes)-p.Time) / t
			w[i] = 1 / (t * t * math.Max(r, fitFloor))
		}
		na, nb := weightedLine(s, w)
		done := math.Abs(na-a) <= 1e-12*math.Max(math.Abs(a), 1e-15) && math.Abs(nb-b) <= 1e-12*math.Max(math.Abs(b), 1e-30)
		a, b = na, nb
		if done {
			break
		}
	}
	var sum float64
	for _, p := range s {
		sum += math.Abs(a+b*float64(p.Bytes)-p.Time) / math.Max(p.Time, 1e-15)
	}
	return Line{From: s[0].Bytes, Latency: a, Bandwidth: 1 / b}, sum
}

// fitRounds bounds the reweighting rounds; fitFloor is the relative
// error below which a point counts as fitted (its weight stops growing).
const (
	fitRounds = 100
	fitFloor  = 1e-6
)

// weightedLine is the weighted least-squares line t = a + b*m, within
// physical bounds: no negative latency, a finite positive bandwidth.
func weightedLine(s []Sample, w []float64) (a, b float64) {
	var sw, sx, sy, sxx, sxy float64
	for i, p := range s {
		x := float64(p.Bytes)
		sw += w[i]
		sx += w[i] * x
		sy += w[i] * p.Time
		sxx += w[i] * x * x
		sxy += w[i] * x * p.Time
	}
	den := sw*sxx - sx*sx
	if den > 0 {
		b = (sw*sxy - sx*sy) / den
		a = (sy - b*sx) / sw
	} else {
		a = sy / sw
	}
	return math.Max(a, 0), math.Max(b, 1e-15)
}

// SegmentedFit fits one line to samples sorted by size, or two lines with
// a break where a protocol change shows: the split is kept when it cuts
// the sum of relative errors by more than half. Each segment has at least
// minSeg points.
func SegmentedFit(s []Sample, minSeg int) []Line {
	if len(s) == 0 {
		return nil
	}
	one, best := fitLine(s)
	out := []Line{one}
	if len(s) < 2*minSeg {
		return out
	}
	limit := best * 0.5
	for k := minSeg; k <= len(s)-minSeg; k++ {
		a, ea := fitLine(s[:k])
		b, eb := fitLine(s[k:])
		if ea+eb < limit {
			limit = ea + eb
			out = []Line{a, b}
		}
	}
	return out
}
