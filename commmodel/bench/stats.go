package bench

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// Confidence levels of the reported intervals (MPIPerf's).
var ConfidenceLevels = []float64{0.90, 0.95, 0.99}

// Stats summarise the valid launch times of one data point, in seconds.
type Stats struct {
	Launches int       `json:"launches"` // total launches after warm-up
	Valid    int       `json:"valid"`
	Trimmed  int       `json:"trimmed"` // valid launches left after trimming
	Mean     float64   `json:"mean"`
	SE       float64   `json:"se"` // sigma / sqrt(valid)
	Min      float64   `json:"min"`
	Max      float64   `json:"max"`
	AbsErr   float64   `json:"abs_err"` // t(0.95) * SE
	CI       []float64 `json:"ci"`      // half-widths at ConfidenceLevels
}

// per is s for one of the n repetitions that each launch made (the
// launch counts unchanged).
func (s Stats) per(n int) Stats {
	if n <= 1 {
		return s
	}
	f := 1 / float64(n)
	s.Mean, s.SE, s.Min, s.Max, s.AbsErr = s.Mean*f, s.SE*f, s.Min*f, s.Max*f, s.AbsErr*f
	s.CI = append([]float64(nil), s.CI...)
	for i := range s.CI {
		s.CI[i] *= f
	}
	return s
}

// Summarise trims trim of the valid times from each end and computes the
// mean, standard error and Student confidence intervals.
func Summarise(valid []float64, launches int, trim float64) Stats {
	st := Stats{Launches: launches, Valid: len(valid)}
	if len(valid) == 0 {
		return st
	}
	v := append([]float64(nil), valid...)
	sort.Float64s(v)
	st.Min, st.Max = v[0], v[len(v)-1]
	cut := int(float64(len(v)) * trim)
	if len(v)-2*cut < 1 {
		cut = 0
	}
	v = v[cut : len(v)-cut]
	st.Trimmed = len(v)
	for _, x := range v {
		st.Mean += x
	}
	st.Mean /= float64(len(v))
	if len(v) > 1 {
		var ss float64
		for _, x := range v {
			ss += (x - st.Mean) * (x - st.Mean)
		}
		sigma := math.Sqrt(ss / float64(len(v)-1))
		st.SE = sigma / math.Sqrt(float64(st.Valid))
		for _, p := range ConfidenceLevels {
			st.CI = append(st.CI, studentT(p, len(v)-1)*st.SE)
		}
		st.AbsErr = st.CI[1]
	}
	return st
}

// studentT is the two-sided quantile of Student's t with df degrees of
// freedom at confidence p.
func studentT(p float64, df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(1 - (1-p)/2)
}

// RelErr is the relative error AbsErr / Mean (infinite without data).
func (s Stats) RelErr() float64 {
	if s.Mean <= 0 || s.Trimmed < 2 {
		return math.Inf(1)
	}
	return s.AbsErr / s.Mean
}
