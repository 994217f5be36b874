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

// fitLine fits t = a + b*m by least squares weighted by 1/t^2, so small
// and large messages count by their relative error; it returns the line
// and its weighted squared error.
func fitLine(s []Sample) (Line, float64) {
	var sw, sx, sy, sxx, sxy float64
	for _, p := range s {
		w := 1 / math.Max(p.Time*p.Time, 1e-30)
		x := float64(p.Bytes)
		sw += w
		sx += w * x
		sy += w * p.Time
		sxx += w * x * x
		sxy += w * x * p.Time
	}
	den := sw*sxx - sx*sx
	var a, b float64
	if den > 0 {
		b = (sw*sxy - sx*sy) / den
		a = (sy - b*sx) / sw
	} else {
		a = sy / sw
	}
	// Physical bounds: no negative latency, a finite positive bandwidth.
	a = math.Max(a, 0)
	b = math.Max(b, 1e-15)
	var sse float64
	for _, p := range s {
		r := (a + b*float64(p.Bytes) - p.Time) / math.Max(p.Time, 1e-15)
		sse += r * r
	}
	return Line{From: s[0].Bytes, Latency: a, Bandwidth: 1 / b}, sse
}

// SegmentedFit fits one line to samples sorted by size, or two lines with
// a break where a protocol change shows: the split is kept when it cuts
// the weighted squared error by more than half. Each segment has at least
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
