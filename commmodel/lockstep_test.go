package commmodel

import (
	"math"
	"testing"
)

func TestEffectiveCores(t *testing.T) {
	m := &Machine{Lockstep: []LockstepRow{
		{Ranks: 2, Compute: 1e-4, Cores: 1},
		{Ranks: 2, Compute: 1e-2, Cores: 2},
		{Ranks: 4, Compute: 1e-4, Cores: 1.2},
	}}
	for _, tc := range []struct {
		ranks   int
		compute float64
		want    float64
		ok      bool
	}{
		{2, 1e-5, 1, true},   // below the table: its first row
		{2, 1e-3, 1.5, true}, // halfway in log(compute)
		{2, 1, 2, true},      // above: the last row
		// Between measured rank counts the efficiency (cores per rank)
		// is interpolated in log(ranks): 2 ranks at 1e-4 s get 0.5 of a
		// core each, 4 ranks 0.3.
		{3, 1e-4, 3 * (0.5 + math.Log(1.5)/math.Log(2)*(0.3-0.5)), true},
		{4, 1e-4, 1.2, true},
		{8, 1e-3, 2.4, true}, // 8 ranks: the efficiency of 4
		{8, 1e-5, 2.4, true},
		{1, 1e-3, 0, false}, // one rank does not synchronise
		{2, 0, 0, false},    // no compute between synchronisations
		{2, math.NaN(), 0, false},
	} {
		got, ok := m.EffectiveCores(tc.ranks, tc.compute)
		if ok != tc.ok || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("EffectiveCores(%d, %g) = %g, %v; want %g, %v", tc.ranks, tc.compute, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := (&Machine{}).EffectiveCores(2, 1e-3); ok {
		t.Error("a machine without a lockstep table gives effective cores")
	}
}

// TestEffectiveCoresForPattern: each pattern answers from its own rows,
// and a pattern the table lacks from the ring's.
func TestEffectiveCoresForPattern(t *testing.T) {
	m := &Machine{Lockstep: []LockstepRow{
		{Ranks: 4, Compute: 1e-3, Cores: 1.9},
		{Pattern: PatternAlltoall, Ranks: 4, Compute: 1e-3, Cores: 1.4},
	}}
	for _, tc := range []struct {
		pattern string
		want    float64
	}{
		{PatternRing, 1.9},
		{PatternAlltoall, 1.4},
	} {
		if got, ok := m.EffectiveCoresFor(tc.pattern, 4, 1e-3); !ok || got != tc.want {
			t.Errorf("EffectiveCoresFor(%q) = %g, %v; want %g", tc.pattern, got, ok, tc.want)
		}
	}
	if got, _ := m.EffectiveCores(4, 1e-3); got != 1.9 {
		t.Errorf("EffectiveCores = %g, want the ring's 1.9", got)
	}
	ring := &Machine{Lockstep: m.Lockstep[:1]}
	if got, ok := ring.EffectiveCoresFor(PatternAlltoall, 4, 1e-3); !ok || got != 1.9 {
		t.Errorf("without all-to-all rows: %g, %v; want the ring's 1.9", got, ok)
	}
}
