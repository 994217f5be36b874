package profiler

import (
	"math"
	"reflect"
	"testing"

	"github.com/parpredict/parpredict/profiler/probe"
)

// TestContentionPair: a region's slowdown at two ranks is the lower of
// the fastest over fastest run and the median over rounds of the ratio
// within a round. A fast mode that only the one-rank runs got inflates
// the first (1.3 against the rounds' 1.05, the median keeping a round
// of a slow spell out); where the rounds' median is the higher (a slow
// spell over most of them), the first stays.
func TestContentionPair(t *testing.T) {
	in := &Instrumented{Regions: []*region{{Target: Target{ID: "hot"}}}}
	plan := timerPlan{timed: map[int]bool{0: true}}
	run := func(own float64) *aggregator {
		return &aggregator{in: in, plan: plan, own: []float64{own}, units: []float64{100}}
	}
	for _, tc := range []struct {
		name    string
		fastest float64 // the fastest two-rank run, against a one-rank run of 1
		rounds  [][2]float64
		want    float64
	}{
		{"fast one-rank mode", 1.3, [][2]float64{{1.2, 1.26}, {1.2, 1.27}, {1.2, 1.25}, {1.2, 2.4}}, (1.26/1.2 + 1.27/1.2) / 2},
		{"slow spell over most rounds", 1.06, [][2]float64{{1, 1.5}, {1, 1.45}, {1, 1.06}}, 1.06},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Contention{PPN: []int{1, 2}, Regions: map[string][]float64{}}
			base := run(1)
			c.add(base, base)
			c.add(base, run(tc.fastest))
			var rounds [][]*aggregator
			for _, r := range tc.rounds {
				rounds = append(rounds, []*aggregator{run(r[0]), run(r[1])})
			}
			c.pair(base, rounds)
			if got := c.Regions["hot"]; got[0] != 1 || math.Abs(got[1]-tc.want) > 1e-12 {
				t.Errorf("slowdowns %v, want [1 %.6g]", got, tc.want)
			}
			if math.Abs(c.Total[1]-tc.want) > 1e-12 {
				t.Errorf("total %.6g, want %.6g", c.Total[1], tc.want)
			}
		})
	}
}

// A region whose inner loops did no iteration in one run and a few in
// the other (a splitter search that finds its place at once with one
// rank) is compared in its own iterations in both: the inner loops'
// 6 against the loop's own 3 million gave a slowdown of 650,000. And a
// slowdown far beyond what ranks sharing a node can cause is left out.
func TestSlowdownSameUnits(t *testing.T) {
	in := &Instrumented{Regions: []*region{{Target: Target{ID: "scan", Kind: Loop}}}}
	plan := timerPlan{timed: map[int]bool{0: true}}
	run := func(own, units float64, ownUnits bool, iters int64) *aggregator {
		return &aggregator{in: in, plan: plan, own: []float64{own}, units: []float64{units}, ownUnits: []bool{ownUnits},
			m: measured{counts: &probe.Counts{Regions: []probe.RegionCounts{{Execs: 20, Iters: iters}}}}}
	}
	one := run(30e6, 3e6, true, 3e6)    // no inner iteration: its own 3 million
	two := run(16.5e6, 6, false, 1.5e6) // 6 inner iterations, half the keys
	if s := slowdown(one, two, 0, 2); math.Abs(s-1.1) > 1e-9 {
		t.Errorf("slowdown %.6g, want 1.1 (the loop's own iterations in both runs)", s)
	}
	// Units that agree in kind but not in work (9 against 3 million)
	// still give an implausible ratio: none.
	if s := slowdown(run(30e6, 3e6, false, 3e6), run(16.5e6, 9, false, 1.5e6), 0, 2); s != 0 {
		t.Errorf("slowdown %.6g, want 0 for a ratio no node sharing gives", s)
	}
}

// TestSortOfExchangedDataKeepsItsSlowdown: a library sort costed per
// n log2 n unit that ran 27 times as long per unit with two ranks (sorted
// data at one rank, two interleaved runs at two) keeps that slowdown,
// which a loop of the same numbers does not (its units miss work); the
// program's total leaves it out, as a slowdown no sharing of cores
// gives.
func TestSortOfExchangedDataKeepsItsSlowdown(t *testing.T) {
	for _, tc := range []struct {
		name  string
		units bool
		want  float64
	}{{"library sort", true, 27}, {"loop", false, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			in := &Instrumented{Regions: []*region{
				{Target: Target{ID: "sort", Kind: Call}, units: tc.units},
				{Target: Target{ID: "work", Kind: Loop}, Index: 1},
			}}
			plan := timerPlan{timed: map[int]bool{0: true, 1: true}}
			run := func(sortNs, workNs float64) *aggregator {
				return &aggregator{in: in, plan: plan, own: []float64{sortNs, workNs}, units: []float64{1e6, 1e6}, execs: []int64{1, 1},
					m: measured{counts: &probe.Counts{Regions: []probe.RegionCounts{{Execs: 1, Iters: 5e4}, {Execs: 1, Iters: 1e6}}}}}
			}
			one, two := run(1e6, 40e6), run(27e6, 44e6)
			if s := slowdown(one, two, 0, 2); math.Abs(s-tc.want) > 1e-9 {
				t.Errorf("slowdown %.6g, want %g", s, tc.want)
			}
			c := &Contention{PPN: []int{1, 2}, Regions: map[string][]float64{}}
			c.add(one, one)
			c.add(one, two)
			if math.Abs(c.Total[1]-1.1) > 1e-9 {
				t.Errorf("total %.6g, want 1.1 (the loop's alone)", c.Total[1])
			}
		})
	}
}

// The contention runs' trips per rank: a row per run once one run had
// them, empty rows before, each as long as its run's rank count though
// the probe's list ends with the last rank that entered the loop.
func TestAppendRankTrips(t *testing.T) {
	c := &Contention{PPN: []int{1, 2, 4}}
	runs := [][]probe.TripCounts{
		nil,
		{{Entries: 2, Iters: 10}},
		{{Entries: 1, Iters: 3}, {}, {Entries: 4, Iters: 10}, {Entries: 1, Iters: 1}},
	}
	for _, ranks := range runs {
		appendMean(&c.Trips, "L", 1, 1)
		c.appendRankTrips("L", ranks)
		appendMean(&c.Trips, "never", 0, 0)
		c.appendRankTrips("never", nil)
	}
	want := [][]float64{{}, {5, 0}, {3, 0, 2.5, 1}}
	if got := c.RankTrips["L"]; !reflect.DeepEqual(got, want) {
		t.Errorf("rank trips %v, want %v", got, want)
	}
	if got, ok := c.RankTrips["never"]; ok {
		t.Errorf("a loop no run had per rank: %v, want no entry", got)
	}
	if err := checkRankTrips(c); err != nil {
		t.Error(err)
	}
}
