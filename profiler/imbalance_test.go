package profiler

import (
	"slices"
	"testing"

	"github.com/parpredict/parpredict/profiler/probe"
)

func TestImbalance(t *testing.T) {
	flat := func(n int, v int64) []int64 {
		s := make([]int64, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	ramp := make([]int64, 100)
	for i := range ramp {
		ramp[i] = int64(1000 * (i + 1))
	}
	// Run 1 disturbed at iterations 10-19, run 2 at 40-49: no run agrees.
	noisy1, noisy2 := flat(100, 1000), flat(100, 1000)
	for i := 10; i < 20; i++ {
		noisy1[i] = 3000
	}
	for i := 40; i < 50; i++ {
		noisy2[i] = 3000
	}
	// The same heavy stretch in both runs is real.
	heavy1, heavy2 := flat(100, 1000), flat(100, 1000)
	for i := 60; i < 70; i++ {
		heavy1[i], heavy2[i] = 2000, 2100
	}
	// Every other iteration slower in every run (a new page of a fresh
	// matrix every other row): no block of iterations is heavier.
	alternating := flat(300, 1000)
	for i := 0; i < 300; i += 2 {
		alternating[i] = 1250
	}
	// A cold first iteration, three times as slow in every run, is an
	// outlier left out before smoothing spreads it over its neighbours.
	cold := flat(120, 1000)
	cold[0] = 3000
	// A short disturbance every 8 iterations, at a different phase in
	// each run (a timer tick each millisecond): every window of 8 holds
	// one, and no block is heavier than another.
	ticked := make([][]int64, 3)
	for ri := range ticked {
		ticked[ri] = flat(120, 1000)
		for i := 2 + 3*ri; i < 120; i += 8 {
			ticked[ri][i] = 2000
		}
	}
	for _, tc := range []struct {
		name     string
		runs     [][]int64
		balanced bool
		ratio    float64
	}{
		{"flat", [][]int64{flat(100, 1000)}, true, 0},
		{"ramp", [][]int64{ramp}, false, 0.98},
		{"noise in different places", [][]int64{noisy1, noisy2}, true, 0},
		{"same heavy stretch", [][]int64{heavy1, heavy2}, false, 0.91},
		{"alternating", [][]int64{alternating, alternating}, true, 0},
		{"cold first iteration", [][]int64{cold, cold, cold}, true, 0},
		{"periodic ticks", ticked, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			im := imbalance(tc.runs, 0)
			if im.Balanced != tc.balanced {
				t.Errorf("balanced = %v (ratio %.3f), want %v", im.Balanced, im.Ratio, tc.balanced)
			}
			if d := im.Ratio - tc.ratio; d > 0.05 || d < -0.05 {
				t.Errorf("ratio %.3f, want about %.3f", im.Ratio, tc.ratio)
			}
		})
	}
}

// TestEntryMeans: a loop entered over whole rows (1000 ns an iteration)
// and twice over one column of the same rows (10 ns) has a vector of the
// mean of its entries at each ordinal, not of the cheap entries; an
// ordinal no entry reached ends it.
func TestEntryMeans(t *testing.T) {
	rc := probe.RegionCounts{
		VecNs:  []int64{1020, 1020, 1000, 0},
		VecCnt: []int64{3, 3, 1, 0},
	}
	got := entryMeans(rc)
	want := []int64{340, 340, 1000}
	if !slices.Equal(got, want) {
		t.Errorf("entryMeans = %v, want %v", got, want)
	}
	if got := entryMeans(probe.RegionCounts{}); got != nil {
		t.Errorf("entryMeans of a loop without a vector = %v, want nil", got)
	}
}
