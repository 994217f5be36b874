package plots

import (
	"fmt"
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/parpredict/parpredict/report"
)

// LostTime draws, per rank, a stacked bar of the rank's share of the total
// time: productive time, then the three parts of lost time
// (communications, idle time, insufficient parallelism). Every bar has the
// height of the execution time.
func LostTime(l *report.Loss, program string) (*plot.Plot, error) {
	if l == nil || len(l.Ranks) == 0 {
		return nil, fmt.Errorf("plots: empty loss report")
	}
	p := plot.New()
	what := "Lost time"
	if l.Interval != 0 {
		what = fmt.Sprintf("Lost time, interval %d", l.Interval)
	}
	p.Title.Text = title(what, program, "", nil)
	p.Y.Label.Text = "time (s)"
	p.X.Label.Text = "rank"
	parts := []struct {
		name string
		c    color.Color
		get  func(report.RankLoss) float64
	}{
		{"productive", computeColor, func(r report.RankLoss) float64 { return r.Productive }},
		{"communications", mpiColor, func(r report.RankLoss) float64 { return r.Communications }},
		{"idle", waitColor, func(r report.RankLoss) float64 { return r.Idle }},
		{"insufficient parallelism", serialColor, func(r report.RankLoss) float64 { return r.InsufficientPar }},
	}
	// About 60 % of each rank's slot on a plot some 380 points wide.
	width := vg.Points(max(1, min(50, 0.6*380/float64(len(l.Ranks)))))
	var below *plotter.BarChart
	for _, part := range parts {
		vs := make(plotter.Values, len(l.Ranks))
		for i, r := range l.Ranks {
			vs[i] = max(0, part.get(r))
		}
		b, err := plotter.NewBarChart(vs, width)
		if err != nil {
			return nil, fmt.Errorf("plots: %s: %w", part.name, err)
		}
		b.Color, b.LineStyle.Width = part.c, 0
		if below != nil {
			b.StackOn(below)
		}
		below = b
		p.Add(b)
		p.Legend.Add(part.name, b)
	}
	names := make([]string, len(l.Ranks))
	step := max(1, len(l.Ranks)/16)
	for i := range names {
		if i%step == 0 {
			names[i] = strconv.Itoa(i)
		}
	}
	p.NominalX(names...)
	p.Legend.Top = true
	// Head room for the legend above the tallest bar.
	p.Y.Min, p.Y.Max = 0, 1.4*l.ExecutionTime
	return p, nil
}
