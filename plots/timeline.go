package plots

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/parpredict/parpredict/report"
)

// Colours of the timeline's segment kinds and of the lost-time parts.
var (
	computeColor = color.RGBA{R: 76, G: 146, B: 202, A: 255} // blue
	mpiColor     = color.RGBA{R: 242, G: 142, B: 43, A: 255} // orange
	waitColor    = color.RGBA{R: 214, G: 39, B: 40, A: 255}  // red
	serialColor  = color.RGBA{R: 148, G: 103, B: 189, A: 255}
)

// kindColor is the colour of a segment.
func kindColor(s report.Segment) color.Color {
	switch {
	case s.Kind == report.KindMPI:
		return mpiColor
	case s.Kind == report.KindWait:
		return waitColor
	case s.Serial:
		return serialColor
	}
	return computeColor
}

// Timeline draws a Gantt chart of the timeline: one row per rank (rank 0 at
// the top), one bar per segment coloured by kind, times from the timeline's
// origin.
func Timeline(t *report.Timeline) (*plot.Plot, error) {
	if t == nil {
		return nil, fmt.Errorf("plots: nil timeline")
	}
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	p := plot.New()
	p.Title.Text = title("Timeline", t.Program, t.Machine, t.Args)
	p.X.Label.Text = "time (s)"
	p.Y.Label.Text = "rank"
	p.Y.Scale = plot.InvertedScale{Normalizer: plot.LinearScale{}}
	n := len(t.Ranks)
	var ticks plot.ConstantTicks
	step := max(1, n/16)
	for r := 0; r < n; r += step {
		ticks = append(ticks, plot.Tick{Value: float64(r), Label: strconv.Itoa(r)})
	}
	p.Y.Tick.Marker = ticks
	g := &gantt{t: t, origin: t.Origin()}
	p.Add(g)
	p.Legend.Top = true
	p.Legend.Add("compute", swatch{computeColor})
	p.Legend.Add("serial compute", swatch{serialColor})
	p.Legend.Add("MPI", swatch{mpiColor})
	p.Legend.Add("waiting", swatch{waitColor})
	return p, nil
}

// gantt is a plot.Plotter drawing the segments as rectangles; it keeps the
// timeline rather than copying it into polygons.
type gantt struct {
	t      *report.Timeline
	origin float64
}

func (g *gantt) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmax = 0
	for _, r := range g.t.Ranks {
		if n := len(r.Segments); n > 0 {
			xmax = math.Max(xmax, r.Segments[n-1].End-g.origin)
		}
	}
	if xmax == 0 {
		xmax = 1
	}
	// Room on the right for the legend, which would otherwise hide the
	// ends of the top rows.
	return 0, xmax * 1.3, -0.5, float64(len(g.t.Ranks)) - 0.5
}

func (g *gantt) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for _, r := range g.t.Ranks {
		row := rowPainter{c: &c, y0: trY(float64(r.Rank) - 0.4), y1: trY(float64(r.Rank) + 0.4)}
		for _, s := range r.Segments {
			row.add(trX(s.Start-g.origin), trX(s.End-g.origin), kindColor(s))
		}
		row.flush()
		row.emit()
	}
}

// binWidth is the resolution of a timeline row: segments narrower than it
// are drawn as one bar per bin, in the colour that covers most of the bin.
// This keeps the SVG of a long run with millions of segments small without
// changing what can be seen.
const binWidth = vg.Length(0.5)

// rowPainter draws one rank's bars: wide segments as they are, runs of
// narrow ones binned, adjacent bars of one colour merged.
type rowPainter struct {
	c      *draw.Canvas
	y0, y1 vg.Length

	// the bar being extended
	bar      bool
	bx0, bx1 vg.Length
	bcol     color.Color

	// the bin of narrow segments being filled
	bin      bool
	nx0, nx1 vg.Length
	weight   map[color.Color]vg.Length
	binOrder []color.Color
}

func (r *rowPainter) add(x0, x1 vg.Length, col color.Color) {
	if x1 <= x0 {
		return
	}
	if x1-x0 >= binWidth {
		r.flush()
		r.bar1(x0, x1, col)
		return
	}
	if r.bin && x0 >= r.nx0+binWidth {
		r.flush()
	}
	if !r.bin {
		r.bin, r.nx0, r.nx1 = true, x0, x1
		r.weight, r.binOrder = map[color.Color]vg.Length{}, r.binOrder[:0]
	}
	if _, ok := r.weight[col]; !ok {
		r.binOrder = append(r.binOrder, col)
	}
	r.weight[col] += x1 - x0
	r.nx1 = max(r.nx1, x1)
}

// flush draws the pending bin in its dominant colour (first seen wins ties).
func (r *rowPainter) flush() {
	if !r.bin {
		return
	}
	var best color.Color
	for _, col := range r.binOrder {
		if best == nil || r.weight[col] > r.weight[best] {
			best = col
		}
	}
	r.bin = false
	r.bar1(r.nx0, r.nx1, best)
}

// bar1 extends the current bar when the new one continues it in the same
// colour, and otherwise draws the current bar and starts a new one.
func (r *rowPainter) bar1(x0, x1 vg.Length, col color.Color) {
	if r.bar && col == r.bcol && x0 <= r.bx1+binWidth/4 {
		r.bx1 = max(r.bx1, x1)
		return
	}
	r.emit()
	r.bar, r.bx0, r.bx1, r.bcol = true, x0, x1, col
}

// emit fills the current bar.
func (r *rowPainter) emit() {
	if !r.bar {
		return
	}
	r.bar = false
	rect := r.c.ClipPolygonXY([]vg.Point{{X: r.bx0, Y: r.y0}, {X: r.bx1, Y: r.y0}, {X: r.bx1, Y: r.y1}, {X: r.bx0, Y: r.y1}})
	if len(rect) == 0 {
		return
	}
	var path vg.Path
	path.Move(rect[0])
	for _, pt := range rect[1:] {
		path.Line(pt)
	}
	path.Close()
	r.c.SetColor(r.bcol)
	r.c.Fill(path)
}

// swatch is a legend entry: a filled square.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}}
	c.FillPolygon(s.c, pts)
}
