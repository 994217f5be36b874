package report

import (
	"fmt"
	"math"
	"sort"
)

// DefaultThreshold is the efficiency below which a configuration is outside
// the scalability range.
const DefaultThreshold = 0.5

// SpeedupOptions tunes Speedup.
type SpeedupOptions struct {
	// Threshold is the efficiency that ends the scalability range; 0 means
	// DefaultThreshold.
	Threshold float64
}

// Where the serial fraction f came from.
const (
	FromModel = "model" // serial time of the P = 1 point / T(1)
	FromFit   = "fit"   // least squares on Amdahl's law over the P > 1 points
	FromNone  = "none"  // neither: no serial time and no P > 1 point; f = 0
)

// SpeedupRow is one line of the speedup table.
type SpeedupRow struct {
	Config
	Time       float64 `json:"time"`
	Speedup    float64 `json:"speedup"`
	Efficiency float64 `json:"efficiency"`
	Amdahl     float64 `json:"amdahl"`
	Gustafson  float64 `json:"gustafson"`
	// KarpFlatt is the experimentally determined serial fraction; nil at
	// P = 1, where it is undefined.
	KarpFlatt *float64 `json:"karp_flatt,omitempty"`
	// BestPPN marks the fastest placement among the rows with this P.
	BestPPN bool `json:"best_ppn"`
}

// Scaling summarises one curve (the rows of one ppn, or the best placement
// per P).
type Scaling struct {
	PPN int `json:"ppn"` // 0 for the best-per-P curve
	// RangeEnd is the largest P whose efficiency is at least the
	// threshold; 0 when none is.
	RangeEnd int `json:"range_end"`
	// BelowAt is the first P after RangeEnd (the first P when RangeEnd is
	// 0); 0 when there is none (the range then extends past the sweep).
	BelowAt int `json:"below_at"`
	// Dips are the P before RangeEnd whose efficiency is below the
	// threshold: a master-worker program's P = 2, one worker, is at 0.5
	// at best, its larger P above it.
	Dips []int `json:"dips,omitempty"`
	// PeakP is the P of maximal speedup; Falls says whether speedup drops
	// after it within the sweep.
	PeakP       int     `json:"peak_p"`
	PeakSpeedup float64 `json:"peak_speedup"`
	Falls       bool    `json:"falls"`
}

// SpeedupReport is the analysed sweep: the table and its summary.
type SpeedupReport struct {
	Program string   `json:"program"`
	Machine string   `json:"machine"`
	Args    []string `json:"args,omitempty"`
	// BaseP is the rank count speedups are measured against: 1, or the
	// smallest count swept when the sweep has no P = 1 point (a program
	// that needs two ranks or more). T1 is the time there.
	BaseP     int          `json:"base_p"`
	T1        float64      `json:"t1"`
	F         float64      `json:"f"`
	FSource   string       `json:"f_source"`
	Threshold float64      `json:"threshold"`
	Rows      []SpeedupRow `json:"rows"`
	// Failed lists the configurations that have no time: the program
	// panics or deadlocks there (filled in by the prediction).
	Failed []Failure `json:"failed,omitempty"`
	Caveats
	// Optimal is the configuration of minimal time (ties: fewer ranks, then
	// more ranks per node).
	Optimal     Config  `json:"optimal"`
	OptimalTime float64 `json:"optimal_time"`
	// PPNs lists the ppn values of the rows. SweptPPN says whether some P
	// was predicted with several placements; PerPPN then has one curve
	// summary per ppn value.
	PPNs     []int     `json:"ppns"`
	SweptPPN bool      `json:"swept_ppn"`
	Overall  Scaling   `json:"overall"`
	PerPPN   []Scaling `json:"per_ppn,omitempty"`
	// PerRank, when asked for, splits one configuration's time per rank.
	PerRank *RankTotals `json:"per_rank,omitempty"`
}

// Failure is a configuration without a predicted time, and why.
type Failure struct {
	Config
	Error string `json:"error"`
}

// Speedup analyses a sweep: speedup and efficiency against the P = 1 point
// (or the smallest P swept, when there is none: speedup p0 T(p0) / T(p)
// over p0 T(p0) / T(p0) is then relative, T(p0) / T(p)), Amdahl's and
// Gustafson's predictions relative to the same point, the Karp-Flatt
// metric, the optimum and the scalability range.
func Speedup(s Sweep, opts SpeedupOptions) (*SpeedupReport, error) {
	pts, err := checkPoints("sweep", s.Points)
	if err != nil {
		return nil, err
	}
	th := opts.Threshold
	if th == 0 {
		th = DefaultThreshold
	}
	if !(th > 0 && th <= 1) {
		return nil, fmt.Errorf("report: efficiency threshold %v outside (0, 1]", th)
	}
	// The first point in sorted order (smallest P, then smallest ppn) is
	// the reference: P = 1 when the sweep has it.
	ref := pts[0]
	r := &SpeedupReport{Program: s.Program, Machine: s.Machine, Args: s.Args,
		BaseP: ref.P, T1: ref.Time, Threshold: th}

	for _, p := range pts {
		sp := ref.Time / p.Time
		row := SpeedupRow{Config: p.Config, Time: p.Time, Speedup: sp, Efficiency: sp * float64(ref.P) / float64(p.P)}
		if p.P > ref.P {
			kf := karpFlatt(sp, p.P, ref.P)
			row.KarpFlatt = &kf
		}
		r.Rows = append(r.Rows, row)
	}
	r.F, r.FSource = serialFraction(ref, r.Rows)
	for i := range r.Rows {
		p := float64(r.Rows[i].P)
		r.Rows[i].Amdahl = r.AmdahlAt(p)
		r.Rows[i].Gustafson = r.GustafsonAt(p)
	}
	r.markBest()
	r.summarise()
	return r, nil
}

// Amdahl is Amdahl's speedup p / (1 + (p-1) f) for serial fraction f.
func Amdahl(p, f float64) float64 { return p / (1 + (p-1)*f) }

// Gustafson is Gustafson's scaled speedup p - (p-1) f.
func Gustafson(p, f float64) float64 { return p - (p-1)*f }

// AmdahlAt is Amdahl's speedup at p relative to the report's base count,
// with its serial fraction.
func (r *SpeedupReport) AmdahlAt(p float64) float64 {
	return Amdahl(p, r.F) / Amdahl(float64(r.base()), r.F)
}

// GustafsonAt is Gustafson's scaled speedup at p relative to the base
// count.
func (r *SpeedupReport) GustafsonAt(p float64) float64 {
	return Gustafson(p, r.F) / Gustafson(float64(r.base()), r.F)
}

// IdealAt is the speedup of perfect scaling from the base count, p / p0.
func (r *SpeedupReport) IdealAt(p float64) float64 { return p / float64(r.base()) }

// base is BaseP, 1 in reports made before it existed (zero).
func (r *SpeedupReport) base() int { return max(1, r.BaseP) }

// karpFlatt is the serial fraction e for which Amdahl's law gives speedup
// s at p over p0 ranks: with a = 1/p and b = 1/p0,
// e = (b/s - a) / ((1 - a) - (1 - b)/s), which for p0 = 1 is the usual
// (1/s - 1/p) / (1 - 1/p); defined for p > p0.
func karpFlatt(s float64, p, p0 int) float64 {
	a, b := 1/float64(p), 1/float64(p0)
	return (b/s - a) / ((1 - a) - (1-b)/s)
}

// serialFraction takes f from the model's serial time when the reference
// point has one; otherwise it fits Amdahl's law by least squares. With
// T(p) = T(p0) (s + (1 - s) p0/p), s the serial share of the reference
// time, the law is linear in s: 1/S - p0/p = s (1 - p0/p), a fit through
// the origin with a closed form and so a deterministic answer; then
// f = s / (s + (1 - s) p0), the share of the one-rank time.
func serialFraction(ref Point, rows []SpeedupRow) (float64, string) {
	if ref.Serial != nil {
		return *ref.Serial / ref.Time, FromModel
	}
	var sxy, sxx float64
	p0 := float64(ref.P)
	for _, row := range rows {
		if row.P == ref.P {
			continue
		}
		q := p0 / float64(row.P)
		x, y := 1-q, 1/row.Speedup-q
		sxy += x * y
		sxx += x * x
	}
	if sxx == 0 {
		return 0, FromNone
	}
	s := math.Min(1, math.Max(0, sxy/sxx))
	return s / (s + (1-s)*p0), FromFit
}

// markBest flags the fastest row per P and finds the overall optimum.
func (r *SpeedupReport) markBest() {
	best := map[int]int{} // P -> row index
	ppns := map[int]bool{}
	for i, row := range r.Rows {
		ppns[row.PPN] = true
		j, ok := best[row.P]
		if ok {
			r.SweptPPN = true
		}
		if !ok || row.Time < r.Rows[j].Time || (row.Time == r.Rows[j].Time && row.PPN > r.Rows[j].PPN) {
			best[row.P] = i
		}
	}
	opt := -1
	for _, i := range best {
		r.Rows[i].BestPPN = true
		// Rows are sorted by P, so comparing indexes breaks ties on P.
		if opt < 0 || r.Rows[i].Time < r.Rows[opt].Time || (r.Rows[i].Time == r.Rows[opt].Time && i < opt) {
			opt = i
		}
	}
	r.Optimal, r.OptimalTime = r.Rows[opt].Config, r.Rows[opt].Time
	for p := range ppns {
		r.PPNs = append(r.PPNs, p)
	}
	sort.Ints(r.PPNs)
}

// summarise computes the scalability range of the best-per-P curve and, when
// several ppn were swept, of each ppn's curve.
func (r *SpeedupReport) summarise() {
	var envelope []SpeedupRow
	for _, row := range r.Rows {
		if row.BestPPN {
			envelope = append(envelope, row)
		}
	}
	r.Overall = scaling(0, envelope, r.Threshold)
	if !r.SweptPPN {
		return
	}
	for _, ppn := range r.PPNs {
		var curve []SpeedupRow
		for _, row := range r.Rows {
			if row.PPN == ppn {
				curve = append(curve, row)
			}
		}
		r.PerPPN = append(r.PerPPN, scaling(ppn, curve, r.Threshold))
	}
}

// scaling summarises rows sorted by P.
func scaling(ppn int, rows []SpeedupRow, th float64) Scaling {
	sc := Scaling{PPN: ppn}
	last := -1 // the largest P at the threshold or above
	for i, row := range rows {
		if row.Efficiency >= th {
			last = i
		}
		if row.Speedup > sc.PeakSpeedup {
			sc.PeakP, sc.PeakSpeedup = row.P, row.Speedup
		}
	}
	if last >= 0 {
		sc.RangeEnd = rows[last].P
	}
	for i, row := range rows {
		switch {
		case i > last:
			if sc.BelowAt == 0 {
				sc.BelowAt = row.P
			}
		case row.Efficiency < th:
			sc.Dips = append(sc.Dips, row.P)
		}
	}
	for _, row := range rows {
		if row.P > sc.PeakP && row.Speedup < sc.PeakSpeedup {
			sc.Falls = true
		}
	}
	return sc
}
