package report

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func ptr(x float64) *float64 { return &x }

// amdahlSweep has times that follow Amdahl's law exactly with f = 0.1.
func amdahlSweep(serial bool) Sweep {
	s := Sweep{Program: "./examples/heat", Machine: "cluster-a", Args: []string{"-n", "1000"}}
	for _, p := range []int{1, 2, 4, 8} {
		pt := Point{Config: Config{P: p, Nodes: 1, PPN: p}, Time: 10 * (0.1 + 0.9/float64(p))}
		if serial {
			pt.Serial = ptr(1)
		}
		s.Points = append(s.Points, pt)
	}
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestSpeedupAmdahl(t *testing.T) {
	for _, tc := range []struct {
		name   string
		serial bool
		source string
	}{
		{"model", true, FromModel},
		{"fit", false, FromFit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Speedup(amdahlSweep(tc.serial), SpeedupOptions{Threshold: 0.7})
			if err != nil {
				t.Fatal(err)
			}
			if r.FSource != tc.source || !near(r.F, 0.1) {
				t.Errorf("f = %v (%s), want 0.1 (%s)", r.F, r.FSource, tc.source)
			}
			wantS := []float64{1, 10 / 5.5, 10 / 3.25, 10 / 2.125}
			for i, row := range r.Rows {
				p := float64(row.P)
				if !near(row.Speedup, wantS[i]) || !near(row.Efficiency, wantS[i]/p) {
					t.Errorf("P=%d: S=%v E=%v, want %v %v", row.P, row.Speedup, row.Efficiency, wantS[i], wantS[i]/p)
				}
				// The times follow Amdahl's law, so S_A = S and Karp-Flatt = f.
				if !near(row.Amdahl, wantS[i]) || !near(row.Gustafson, p-(p-1)*0.1) {
					t.Errorf("P=%d: S_A=%v S_G=%v", row.P, row.Amdahl, row.Gustafson)
				}
				if (row.P == 1) != (row.KarpFlatt == nil) || (row.KarpFlatt != nil && !near(*row.KarpFlatt, 0.1)) {
					t.Errorf("P=%d: Karp-Flatt %v", row.P, row.KarpFlatt)
				}
			}
			// E(4) = 0.769, E(8) = 0.588 < 0.7.
			if r.Overall.RangeEnd != 4 || r.Overall.BelowAt != 8 || r.Overall.PeakP != 8 || r.Overall.Falls {
				t.Errorf("scaling %+v, want range end 4, below at 8, peak 8, not falling", r.Overall)
			}
			if r.Optimal.P != 8 {
				t.Errorf("optimal P %d, want 8", r.Optimal.P)
			}
		})
	}
}

func times(ts ...float64) Sweep {
	var s Sweep
	for i, t := range ts {
		s.Points = append(s.Points, Point{Config: Config{P: 1 << i}, Time: t})
	}
	return s
}

func TestSpeedupSummary(t *testing.T) {
	for _, tc := range []struct {
		name    string
		sweep   Sweep
		optP    int
		scaling Scaling
	}{
		// S = 1, 1.667, 2, 1.429: peaks at 4 and falls; E(8) = 0.179.
		{"peak and fall", times(10, 6, 5, 7), 4, Scaling{RangeEnd: 4, BelowAt: 8, PeakP: 4, PeakSpeedup: 2, Falls: true}},
		// Equal times at P = 2 and 4: the optimum is the smaller P.
		{"tie on time", times(10, 4, 4), 2, Scaling{RangeEnd: 4, PeakP: 2, PeakSpeedup: 2.5, Falls: false}},
		// E(2) = 0.25: the range ends at 1, and speedup falls after it.
		{"slower with more ranks", times(1, 2), 1, Scaling{RangeEnd: 1, BelowAt: 2, PeakP: 1, PeakSpeedup: 1, Falls: true}},
		{"one point", times(3), 1, Scaling{RangeEnd: 1, PeakP: 1, PeakSpeedup: 1}},
		// A master and one worker at P = 2: E(2) = 0.455, E(4) = 0.625,
		// E(8) = 0.568, E(16) = 0.31.
		{"dip at two", times(10, 11, 4, 2.2, 2), 16, Scaling{RangeEnd: 8, BelowAt: 16, Dips: []int{2}, PeakP: 16, PeakSpeedup: 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Speedup(tc.sweep, SpeedupOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Optimal.P != tc.optP {
				t.Errorf("optimal P %d, want %d", r.Optimal.P, tc.optP)
			}
			if !reflect.DeepEqual(r.Overall, tc.scaling) {
				t.Errorf("scaling %+v, want %+v", r.Overall, tc.scaling)
			}
		})
	}
}

func multiPPN() Sweep {
	return Sweep{Program: "./examples/matmul", Machine: "cluster-a", Args: []string{"-n", "20000"}, Points: []Point{
		{Config: Config{P: 4, Nodes: 2, PPN: 2}, Time: 3.0},
		{Config: Config{P: 1, Nodes: 1, PPN: 1}, Time: 10, Serial: ptr(0.5)},
		{Config: Config{P: 2, Nodes: 1, PPN: 2}, Time: 5.2},
		{Config: Config{P: 2, Nodes: 2, PPN: 1}, Time: 5.0},
		{Config: Config{P: 4, Nodes: 1, PPN: 4}, Time: 3.0},
		{Config: Config{P: 4, Nodes: 4, PPN: 1}, Time: 2.9},
		{Config: Config{P: 8, Nodes: 2, PPN: 4}, Time: 2.5},
		{Config: Config{P: 8, Nodes: 4, PPN: 2}, Time: 2.4},
	}}
}

func TestSpeedupPPN(t *testing.T) {
	r, err := Speedup(multiPPN(), SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var best []string
	for _, row := range r.Rows {
		if row.BestPPN {
			best = append(best, row.Config.String())
		}
	}
	if got, want := strings.Join(best, " "), "1 (1x1) 2 (2x1) 4 (4x1) 8 (4x2)"; got != want {
		t.Errorf("best placements %q, want %q", got, want)
	}
	if r.Optimal != (Config{P: 8, Nodes: 4, PPN: 2}) {
		t.Errorf("optimum %v", r.Optimal)
	}
	if !r.SweptPPN || len(r.PerPPN) != 3 || r.PerPPN[2].PPN != 4 || r.PerPPN[2].PeakP != 8 {
		t.Errorf("per ppn %+v", r.PerPPN)
	}
	if r.FSource != FromModel || r.F != 0.05 {
		t.Errorf("f = %v (%s)", r.F, r.FSource)
	}
	// Ties on time at one P go to more ranks per node (fewer nodes).
	tie := Sweep{Points: []Point{{Config: Config{P: 1, Nodes: 1, PPN: 1}, Time: 2},
		{Config: Config{P: 2, Nodes: 2, PPN: 1}, Time: 1}, {Config: Config{P: 2, Nodes: 1, PPN: 2}, Time: 1}}}
	r, err = Speedup(tie, SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Optimal.PPN != 2 {
		t.Errorf("tie: optimum %v, want ppn 2", r.Optimal)
	}
}

func TestSpeedupErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sweep Sweep
		opts  SpeedupOptions
		want  string
	}{
		{"empty", Sweep{}, SpeedupOptions{}, "no points"},
		{"zero time", times(1, 0), SpeedupOptions{}, "want a positive finite number"},
		{"NaN time", times(1, math.NaN()), SpeedupOptions{}, "want a positive finite number"},
		{"bad P", Sweep{Points: []Point{{Config: Config{P: 0}, Time: 1}}}, SpeedupOptions{}, "want >= 1"},
		{"duplicate", Sweep{Points: []Point{{Config: Config{P: 1}, Time: 1}, {Config: Config{P: 1}, Time: 2}}}, SpeedupOptions{}, "two points"},
		{"placement too small", Sweep{Points: []Point{{Config: Config{P: 8, Nodes: 2, PPN: 2}, Time: 1}}}, SpeedupOptions{}, "hold only 4"},
		{"serial > time", Sweep{Points: []Point{{Config: Config{P: 1}, Time: 1, Serial: ptr(2)}}}, SpeedupOptions{}, "serial time"},
		{"threshold", times(1), SpeedupOptions{Threshold: 2}, "threshold"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Speedup(tc.sweep, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "report: ") {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestSpeedupFromSmallestP: a sweep without P = 1 (a program that needs
// two ranks) is measured against its smallest P. On Amdahl's times with
// f = 0.1 from P = 2 on, the fit finds f = 0.1 of the one-rank time, the
// relative Amdahl curve and Karp-Flatt follow the relative speedups, and
// efficiency is 1 at the base.
func TestSpeedupFromSmallestP(t *testing.T) {
	sw := amdahlSweep(false)
	sw.Points = sw.Points[1:]
	r, err := Speedup(sw, SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.BaseP != 2 || !near(r.T1, 5.5) || r.FSource != FromFit || !near(r.F, 0.1) {
		t.Fatalf("base P %d, T %v, f = %v (%s); want 2, 5.5, 0.1 by fit", r.BaseP, r.T1, r.F, r.FSource)
	}
	for _, row := range r.Rows {
		p := float64(row.P)
		want := 5.5 / (10 * (0.1 + 0.9/p))
		if !near(row.Speedup, want) || !near(row.Efficiency, want*2/p) || !near(row.Amdahl, want) {
			t.Errorf("P=%d: S=%v E=%v S_A=%v, want S = S_A = %v, E = %v", row.P, row.Speedup, row.Efficiency, row.Amdahl, want, want*2/p)
		}
		if !near(row.Gustafson, (p-(p-1)*0.1)/(2-0.1)) || !near(r.IdealAt(p), p/2) {
			t.Errorf("P=%d: S_G=%v ideal %v", row.P, row.Gustafson, r.IdealAt(p))
		}
		if (row.P == 2) != (row.KarpFlatt == nil) || (row.KarpFlatt != nil && !near(*row.KarpFlatt, 0.1)) {
			t.Errorf("P=%d: Karp-Flatt %v, want 0.1 (none at the base)", row.P, row.KarpFlatt)
		}
	}
	r.Failed = []Failure{{Config: Config{P: 1, Nodes: 1, PPN: 1}, Error: "interpreter: rank 0: main.go:8:14: in main.main$1: the program panics: runtime error: integer divide by zero"}}
	checkGolden(t, "speedup_base2.golden.txt", r.WriteText)
}

func TestSpeedupGolden(t *testing.T) {
	r, err := Speedup(multiPPN(), SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "speedup.golden.txt", r.WriteText)
	checkGolden(t, "speedup.golden.csv", r.WriteCSV)
	checkGolden(t, "speedup.golden.json", r.WriteJSON)
	r, err = Speedup(amdahlSweep(false), SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "speedup_fit.golden.txt", r.WriteText)
}

// A dip below the threshold before the range's end is named, not taken
// for its end.
func TestScalingDipNamed(t *testing.T) {
	r, err := Speedup(times(10, 11, 4, 2.2, 2), SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "scalability range: up to P = 8 (efficiency < 0.500 from P = 16), with efficiency < 0.500 before it at P = 2\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("text:\n%s\nwant the line %q", b.String(), want)
	}
}
