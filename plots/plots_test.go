package plots

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/parpredict/parpredict/report"
)

var (
	update = flag.Bool("update", false, "rewrite the golden files in testdata")
	pngDir = flag.String("png", "", "also write each plot as a PNG into this directory, to look at")
)

func ptr(x float64) *float64 { return &x }

func speedupReport(t *testing.T, ppn bool) *report.SpeedupReport {
	t.Helper()
	s := report.Sweep{Program: "./examples/heat", Machine: "cluster-a", Args: []string{"-n", "4000"}}
	for _, p := range []int{1, 2, 4, 8, 16, 32, 64} {
		// Amdahl with f = 0.02 plus a communication term growing with P.
		tm := 100*(0.02+0.98/float64(p)) + 0.05*float64(p)
		s.Points = append(s.Points, report.Point{Config: report.Config{P: p, Nodes: max(1, p/4), PPN: min(p, 4)}, Time: tm})
		if ppn && p > 1 && p <= 16 {
			s.Points = append(s.Points, report.Point{Config: report.Config{P: p, Nodes: p, PPN: 1}, Time: tm * 0.97})
		}
	}
	s.Points[0].Serial = ptr(2)
	r, err := report.Speedup(s, report.SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func validationReport(t *testing.T) *report.ValidationReport {
	t.Helper()
	act := report.Sweep{Points: []report.Point{
		{Config: report.Config{P: 1}, Time: 10}, {Config: report.Config{P: 2}, Time: 5.3},
		{Config: report.Config{P: 4}, Time: 3.1}, {Config: report.Config{P: 8}, Time: 2.6}}}
	pred := report.Sweep{Program: "./examples/heat", Machine: "local", Args: []string{"-n", "500"}, Points: []report.Point{
		{Config: report.Config{P: 1}, Time: 9.6}, {Config: report.Config{P: 2}, Time: 5.0},
		{Config: report.Config{P: 4}, Time: 3.2}, {Config: report.Config{P: 8}, Time: 2.4}}}
	r, err := report.Validation(act, pred)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func seg(k report.Kind, op string, a, b float64) report.Segment {
	return report.Segment{Kind: k, Op: op, Start: a, End: b, Dest: -1, Source: -1, Root: -1, Tag: -1}
}

// timeline is a four-rank halo exchange with a serial start and an
// allreduce that the faster ranks wait in.
func timeline() *report.Timeline {
	tl := &report.Timeline{Program: "./examples/heat", Machine: "cluster-a", Args: []string{"-n", "500"}}
	for r := 0; r < 4; r++ {
		work := 1 + 0.3*float64(r)
		s := seg(report.KindCompute, "", 0, 0.5)
		s.Serial = true
		segs := []report.Segment{s, seg(report.KindCompute, "", 0.5, 0.5+work),
			seg(report.KindMPI, "Sendrecv", 0.5+work, 0.7+work)}
		end := 0.7 + work
		segs = append(segs, seg(report.KindWait, "Allreduce", end, 2.6), seg(report.KindMPI, "Allreduce", 2.6, 2.8),
			seg(report.KindCompute, "", 2.8, 3.2+0.1*float64(r)))
		tl.Ranks = append(tl.Ranks, report.RankTimeline{Rank: r, Segments: segs})
	}
	return tl
}

func TestPlots(t *testing.T) {
	loss, err := report.Losses(timeline(), report.LossOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		make func() (*plot.Plot, error)
	}{
		{"speedup", func() (*plot.Plot, error) { return Speedup(speedupReport(t, false)) }},
		{"speedup_ppn", func() (*plot.Plot, error) { return Speedup(speedupReport(t, true)) }},
		{"efficiency", func() (*plot.Plot, error) { return Efficiency(speedupReport(t, true)) }},
		{"validation", func() (*plot.Plot, error) { return Validation(validationReport(t), Speedups) }},
		{"validation_time", func() (*plot.Plot, error) { return Validation(validationReport(t), Times) }},
		{"timeline", func() (*plot.Plot, error) { return Timeline(timeline()) }},
		{"losttime", func() (*plot.Plot, error) { return LostTime(&loss.Whole, "./examples/heat") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			render := func() []byte {
				p, err := tc.make()
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				if err := Write(&b, p, "svg"); err != nil {
					t.Fatal(err)
				}
				return b.Bytes()
			}
			got := render()
			if !bytes.Equal(got, render()) {
				t.Fatal("two renderings of the same plot differ")
			}
			path := filepath.Join("testdata", tc.name+".golden.svg")
			if *update {
				p, _ := tc.make()
				if err := Save(p, path); err != nil {
					t.Fatal(err)
				}
				return
			}
			if *pngDir != "" {
				p, _ := tc.make()
				if err := Save(p, filepath.Join(*pngDir, tc.name+".png")); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s; run go test -update and look at the new file", tc.name, path)
			}
		})
	}
}

func TestPlotErrors(t *testing.T) {
	noP1, err := report.Validation(report.Sweep{Points: []report.Point{{Config: report.Config{P: 2}, Time: 1}}},
		report.Sweep{Points: []report.Point{{Config: report.Config{P: 2}, Time: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		fn   func() error
		want string
	}{
		{"nil speedup", func() error { _, err := Speedup(nil); return err }, "empty speedup report"},
		{"nil efficiency", func() error { _, err := Efficiency(&report.SpeedupReport{}); return err }, "empty speedup report"},
		{"speedups without P=1", func() error { _, err := Validation(noP1, Speedups); return err }, "no P = 1 run"},
		{"bad timeline", func() error {
			_, err := Timeline(&report.Timeline{Ranks: []report.RankTimeline{{Segments: []report.Segment{seg(report.KindCompute, "", 2, 1)}}}})
			return err
		}, "before it starts"},
		{"nil loss", func() error { _, err := LostTime(nil, ""); return err }, "empty loss report"},
		{"bad extension", func() error { return Save(plot.New(), filepath.Join(t.TempDir(), "x.gif")) }, "want .png or .svg"},
		{"bad format", func() error { return Write(&bytes.Buffer{}, plot.New(), "pdf") }, "want png or svg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.fn()
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "plots: ") {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSavePNG(t *testing.T) {
	p, err := Speedup(speedupReport(t, false))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.png")
	if err := Save(p, path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("%s is not a PNG", path)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("temporary files left beside %s: %v", path, entries)
	}
}

// TestPlotEdges draws degenerate but valid inputs: one point, ranks with
// no segments, a single rank.
func TestPlotEdges(t *testing.T) {
	one, err := report.Speedup(report.Sweep{Points: []report.Point{{Config: report.Config{P: 1}, Time: 1}}}, report.SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	empty := &report.Timeline{Ranks: []report.RankTimeline{{Rank: 0}, {Rank: 1}}}
	loss, err := report.Losses(&report.Timeline{Ranks: []report.RankTimeline{{Rank: 0, Segments: []report.Segment{seg(report.KindCompute, "", 0, 1)}}}}, report.LossOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for name, mk := range map[string]func() (*plot.Plot, error){
		"speedup":    func() (*plot.Plot, error) { return Speedup(one) },
		"efficiency": func() (*plot.Plot, error) { return Efficiency(one) },
		"timeline":   func() (*plot.Plot, error) { return Timeline(empty) },
		"losttime":   func() (*plot.Plot, error) { return LostTime(&loss.Whole, "") },
	} {
		p, err := mk()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, f := range []string{"svg", "png"} {
			if err := Write(&bytes.Buffer{}, p, f); err != nil {
				t.Errorf("%s %s: %v", name, f, err)
			}
		}
	}
}

// TestTimelineBinning checks that segments far narrower than the drawing's
// resolution are binned: 20000 segments on one row become at most one bar
// per bin, and a row of one colour becomes one bar.
func TestTimelineBinning(t *testing.T) {
	var segs []report.Segment
	tm := 0.0
	for i := 0; i < 10000; i++ {
		segs = append(segs, seg(report.KindCompute, "", tm, tm+1e-4), seg(report.KindMPI, "Send", tm+1e-4, tm+1.1e-4))
		tm += 1.1e-4
	}
	tl := &report.Timeline{Ranks: []report.RankTimeline{{Rank: 0, Segments: segs}}}
	p, err := Timeline(tl)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, p, "svg"); err != nil {
		t.Fatal(err)
	}
	// Compute covers 91 % of every bin, so the whole row is one blue bar.
	blue := strings.Count(b.String(), "fill:#4C92CA")
	if blue != 2 { // the bar and the legend swatch
		t.Errorf("%d blue fills, want 2 (one bar, one swatch)", blue)
	}
	if n := strings.Count(b.String(), "<path"); n > 100 {
		t.Errorf("%d paths for one binned row", n)
	}
}
