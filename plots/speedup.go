package plots

import (
	"fmt"
	"image/color"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/parpredict/parpredict/report"
)

// Styles of the reference curves, shared by the speedup and validation
// plots.
var (
	grey      = color.RGBA{R: 120, G: 120, B: 120, A: 255}
	dashed    = []vg.Length{vg.Points(4), vg.Points(3)}
	dotted    = []vg.Length{vg.Points(1), vg.Points(2)}
	dashDot   = []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1), vg.Points(2)}
	lineWidth = vg.Points(1.5)
)

// Speedup plots speedup against P: the predicted curve (one per ppn when
// several were swept), Amdahl's and Gustafson's laws with the report's f,
// and the ideal S = P.
func Speedup(r *report.SpeedupReport) (*plot.Plot, error) {
	if r == nil || len(r.Rows) == 0 {
		return nil, fmt.Errorf("plots: empty speedup report")
	}
	p := plot.New()
	p.Title.Text = title("Speedup", r.Program, r.Machine, r.Args)
	p.Y.Label.Text = "speedup"
	if r.BaseP > 1 {
		p.Y.Label.Text = fmt.Sprintf("speedup over P = %d", r.BaseP)
	}
	ps := distinctP(r.Rows)
	pAxis(p, ps)
	p.Legend.Top, p.Legend.Left = true, true

	ideal, amdahl, gustafson := make(plotter.XYs, len(ps)), make(plotter.XYs, len(ps)), make(plotter.XYs, len(ps))
	for i, n := range ps {
		x := float64(n)
		ideal[i] = plotter.XY{X: x, Y: r.IdealAt(x)}
		amdahl[i] = plotter.XY{X: x, Y: r.AmdahlAt(x)}
		gustafson[i] = plotter.XY{X: x, Y: r.GustafsonAt(x)}
	}
	fs := fmt.Sprintf("f = %.4g", r.F)
	if err := addLine(p, ideal, "ideal", grey, dotted); err != nil {
		return nil, err
	}
	if err := addLine(p, amdahl, "Amdahl, "+fs, grey, dashed); err != nil {
		return nil, err
	}
	if err := addLine(p, gustafson, "Gustafson, "+fs, grey, dashDot); err != nil {
		return nil, err
	}
	for i, c := range curves(r) {
		xys := make(plotter.XYs, len(c.rows))
		for j, row := range c.rows {
			xys[j] = plotter.XY{X: float64(row.P), Y: row.Speedup}
		}
		if err := addLinePoints(p, xys, c.name, plotutil.Color(i), i); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// curve is one predicted series: the rows of one ppn, or all rows.
type curve struct {
	name string
	rows []report.SpeedupRow
}

// curves splits the rows per ppn when several placements were swept; the
// reference row (P = 1, or the sweep's smallest P) starts every curve
// that has no row of its own at that P, so each shows its speedup from
// the reference.
func curves(r *report.SpeedupReport) []curve {
	if !r.SweptPPN {
		return []curve{{name: "predicted", rows: r.Rows}}
	}
	var out []curve
	for _, ppn := range r.PPNs {
		c := curve{name: fmt.Sprintf("predicted, %d per node", ppn)}
		for _, row := range r.Rows {
			if row.PPN == ppn {
				c.rows = append(c.rows, row)
			}
		}
		if len(c.rows) > 0 && c.rows[0].P != r.Rows[0].P {
			c.rows = append(c.rows, r.Rows[0])
		}
		sort.SliceStable(c.rows, func(i, j int) bool { return c.rows[i].P < c.rows[j].P })
		out = append(out, c)
	}
	return out
}

func distinctP(rows []report.SpeedupRow) []int {
	var ps []int
	for _, row := range rows {
		if len(ps) == 0 || ps[len(ps)-1] != row.P {
			ps = append(ps, row.P)
		}
	}
	return ps
}

func addLine(p *plot.Plot, xys plotter.XYs, name string, c color.Color, dashes []vg.Length) error {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return fmt.Errorf("plots: %s: %w", name, err)
	}
	l.Color, l.Width, l.Dashes = c, lineWidth, dashes
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

func addLinePoints(p *plot.Plot, xys plotter.XYs, name string, c color.Color, shape int) error {
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return fmt.Errorf("plots: %s: %w", name, err)
	}
	l.Color, l.Width = c, lineWidth
	s.Color, s.Shape, s.Radius = c, draw.GlyphDrawer(plotutil.Shape(shape)), vg.Points(3)
	p.Add(l, s)
	p.Legend.Add(name, l, s)
	return nil
}
