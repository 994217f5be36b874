package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"

	"github.com/parpredict/parpredict/report"
)

// Efficiency plots parallel efficiency S(P)/P against P, one curve per ppn
// when several were swept, with the scalability threshold as a dashed line.
func Efficiency(r *report.SpeedupReport) (*plot.Plot, error) {
	if r == nil || len(r.Rows) == 0 {
		return nil, fmt.Errorf("plots: empty speedup report")
	}
	p := plot.New()
	p.Title.Text = title("Efficiency", r.Program, r.Machine, r.Args)
	p.Y.Label.Text = "efficiency S(P)/P"
	ps := distinctP(r.Rows)
	pAxis(p, ps)
	p.Y.Min = 0
	// Efficiency falls with P, so the bottom left corner is free.
	p.Legend.Left = true
	th := plotter.XYs{{X: float64(ps[0]), Y: r.Threshold}, {X: float64(ps[len(ps)-1]), Y: r.Threshold}}
	if err := addLine(p, th, fmt.Sprintf("threshold %.2g", r.Threshold), grey, dashed); err != nil {
		return nil, err
	}
	for i, c := range curves(r) {
		xys := make(plotter.XYs, len(c.rows))
		for j, row := range c.rows {
			xys[j] = plotter.XY{X: float64(row.P), Y: row.Efficiency}
		}
		if err := addLinePoints(p, xys, c.name, plotutil.Color(i), i); err != nil {
			return nil, err
		}
	}
	return p, nil
}
