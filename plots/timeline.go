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
		y0, y1 := trY(float64(r.Rank)-0.4), trY(float64(r.Rank)+0.4)
		for _, s := range r.Segments {
			x0, x1 := trX(s.Start-g.origin), trX(s.End-g.origin)
			if x1-x0 < vg.Points(0.1) {
				continue // under a tenth of a point: invisible
			}
			rect := c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
			if len(rect) == 0 {
				continue
			}
			var path vg.Path
			path.Move(rect[0])
			for _, pt := range rect[1:] {
				path.Line(pt)
			}
			path.Close()
			c.SetColor(kindColor(s))
			c.Fill(path)
		}
	}
}

// swatch is a legend entry: a filled square.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}}
	c.FillPolygon(s.c, pts)
}
