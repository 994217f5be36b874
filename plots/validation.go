package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"

	"github.com/parpredict/parpredict/report"
)

// Quantity picks what a validation plot compares.
type Quantity int

const (
	// Speedups compares actual and predicted speedup (needs a P = 1 row).
	Speedups Quantity = iota
	// Times compares actual and predicted run times.
	Times
)

// Validation plots actual against predicted speedup (or time) per P, with
// the absolute difference between them, like the figures of the ParJava
// papers.
func Validation(r *report.ValidationReport, q Quantity) (*plot.Plot, error) {
	if r == nil || len(r.Rows) == 0 {
		return nil, fmt.Errorf("plots: empty validation report")
	}
	if q == Speedups && r.Rows[0].ActualSpeedup == 0 {
		return nil, fmt.Errorf("plots: validation has no P = 1 run, so no speedups; plot times instead")
	}
	p := plot.New()
	p.Title.Text = title("Actual and predicted", r.Program, r.Machine, r.Args)
	p.Y.Label.Text = "speedup"
	if q == Times {
		p.Y.Label.Text = "time (s)"
	}
	ps := make([]int, len(r.Rows))
	act, pred, diff := make(plotter.XYs, len(r.Rows)), make(plotter.XYs, len(r.Rows)), make(plotter.XYs, len(r.Rows))
	for i, row := range r.Rows {
		ps[i] = row.P
		x := float64(row.P)
		a, pr := row.ActualSpeedup, row.PredictedSpeedup
		if q == Times {
			a, pr = row.Actual, row.Predicted
		}
		act[i], pred[i] = plotter.XY{X: x, Y: a}, plotter.XY{X: x, Y: pr}
		diff[i] = plotter.XY{X: x, Y: abs(pr - a)}
	}
	pAxis(p, ps)
	p.Y.Min = 0
	p.Legend.Top, p.Legend.Left = true, true
	if err := addLinePoints(p, act, "actual", plotutil.Color(0), 0); err != nil {
		return nil, err
	}
	if err := addLinePoints(p, pred, "predicted", plotutil.Color(1), 1); err != nil {
		return nil, err
	}
	if err := addLinePoints(p, diff, "absolute difference", grey, 2); err != nil {
		return nil, err
	}
	return p, nil
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
