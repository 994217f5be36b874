package plots

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// isPow2 reports whether n is a power of two.
func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

// pAxis sets up the P axis: log2 with a tick per power of two when every P
// is a power of two and they span at least 1 to 4; linear otherwise.
func pAxis(p *plot.Plot, ps []int) {
	p.X.Label.Text = "processes P"
	lo, hi := math.Inf(1), math.Inf(-1)
	log2 := len(ps) > 0
	for _, n := range ps {
		log2 = log2 && isPow2(n)
		lo, hi = math.Min(lo, float64(n)), math.Max(hi, float64(n))
	}
	if !log2 || hi/lo < 4 {
		p.X.Tick.Marker = intTicks{}
		return
	}
	p.X.Scale = plot.LogScale{}
	var ticks plot.ConstantTicks
	for v := lo; v <= hi; v *= 2 {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.Itoa(int(v))})
	}
	p.X.Tick.Marker = ticks
	p.X.Min, p.X.Max = lo, hi
}

// intTicks are the default ticks with the fractional ones dropped: P is a
// whole number.
type intTicks struct{}

func (intTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(min, max) {
		if t.Value == math.Trunc(t.Value) || t.Label == "" {
			out = append(out, t)
		}
	}
	return out
}
