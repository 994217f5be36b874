package prediction

import (
	"math"
	"testing"

	"github.com/parpredict/parpredict/profiler"
)

// A loop's exclusive time is the own time of what is timed inside it and
// outside the loops costed apart: through call sites into the called
// function's body, shared among the body's call sites by their times. An
// own time below zero (L's: the probes over-subtracted) counts as 0.
func TestZonesExclusiveOwn(t *testing.T) {
	prof := &profiler.Profile{Regions: []profiler.Region{
		{ID: "L", Kind: profiler.Loop, Timed: true, TotalNs: 2000, OwnNs: -10},
		{ID: "C1", Kind: profiler.Call, Parent: "L", Timed: true, TotalNs: 1500, OwnNs: 5, Callee: "example.org/p.f"},
		{ID: "if", Kind: "then", Parent: "L"},
		{ID: "C2", Kind: profiler.Call, Parent: "if", Timed: true, TotalNs: 500, OwnNs: 3, Callee: "example.org/p.f"},
		{ID: "F", Kind: profiler.FuncBody, Func: "main.f", Timed: true, TotalNs: 1900, OwnNs: 40},
		{ID: "G", Kind: profiler.Loop, Parent: "F", Timed: true, TotalNs: 1600, OwnNs: 1600},
		{ID: "other", Kind: profiler.Loop, Timed: true, TotalNs: 99, OwnNs: 99},
		{ID: "body", Kind: profiler.FuncBody, Func: "main.main$1", Rank: true, Timed: true, TotalNs: 3000, OwnNs: 7},
	}}
	z := &zones{prof: prof, sites: map[string][]string{"example.org/p.f": {"C1", "C2"}}, full: map[string]string{"main.f": "example.org/p.f"}}
	for _, tc := range []struct {
		inner []string
		want  float64
	}{
		// All of f is called from inside L (both sites are in it).
		{nil, 5 + 3 + 40 + 1600},
		{[]string{"G"}, 5 + 3 + 40},
	} {
		got, ok := z.exclusiveOwn("L", tc.inner)
		if !ok || math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("exclusiveOwn(L, %v) = %g, %v; want %g", tc.inner, got, ok, tc.want)
		}
	}
	// With C2 outside L, a quarter of f (C2's share of the calls' time)
	// is not L's.
	c2, _ := prof.Region("C2")
	c2.Parent = ""
	if got, _ := z.exclusiveOwn("L", []string{"G"}); math.Abs(got-(5+0.75*40)) > 1e-9 {
		t.Errorf("with one of f's sites outside L: %g, want %g", got, 5+0.75*40)
	}
	if own, ok := z.rankBodiesOwn(); !ok || own != 7 {
		t.Errorf("rank bodies' own time %g, %v; want 7 (nothing else hangs under the body here)", own, ok)
	}
	if _, ok := z.exclusiveOwn("missing", nil); ok {
		t.Error("a loop the profile does not have has an exclusive time")
	}
}

// A function the profiled run reached, called there from L and, in code
// it never reached, from W (numbers from the contention run at 2 ranks,
// Ranks): its time is L's alone, and W's loop holds it per call, as many
// calls as W made in its run. Neither adds the other run's time to the
// ranks' bodies.
func TestZonesAcrossRuns(t *testing.T) {
	prof := &profiler.Profile{Regions: []profiler.Region{
		{ID: "body", Kind: profiler.FuncBody, Func: "main.main$1", Rank: true, Timed: true, TotalNs: 3000, OwnNs: 7},
		{ID: "L", Kind: profiler.Loop, Parent: "body", Timed: true, TotalNs: 2000, OwnNs: 10},
		{ID: "C1", Kind: profiler.Call, Parent: "L", Timed: true, Execs: 100, TotalNs: 1900, OwnNs: 5, Callee: "example.org/p.f"},
		{ID: "W", Kind: profiler.Loop, Parent: "body", Timed: true, TotalNs: 9000, OwnNs: 20, Ranks: 2},
		{ID: "C2", Kind: profiler.Call, Parent: "W", Timed: true, Execs: 300, TotalNs: 8000, OwnNs: 6, Callee: "example.org/p.f", Ranks: 2},
		{ID: "F", Kind: profiler.FuncBody, Func: "main.f", Timed: true, TotalNs: 1850, OwnNs: 1800},
	}}
	z := &zones{prof: prof, sites: map[string][]string{"example.org/p.f": {"C1", "C2"}}, full: map[string]string{"main.f": "example.org/p.f"}}
	for _, tc := range []struct {
		loop string
		want float64
	}{
		{"L", 10 + 5 + 1800},
		{"W", 20 + 6 + 3*1800},
	} {
		if got, ok := z.exclusiveOwn(tc.loop, nil); !ok || math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("exclusiveOwn(%s) = %g, %v; want %g", tc.loop, got, ok, tc.want)
		}
	}
	if own, _ := z.rankBodiesOwn(); math.Abs(own-(7+10+5+1800)) > 1e-9 {
		t.Errorf("rank bodies' own time %g, want %g (the profiled run's only)", own, 7+10+5+1800.0)
	}
}
