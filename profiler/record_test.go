package profiler

import (
	"math"
	"testing"

	"github.com/parpredict/parpredict/mpi"
	"github.com/parpredict/parpredict/profiler/probe"
)

// The mpi trace's time spent recording a call (its call site, storing
// it) is the rank's own time, outside the call and inside the region
// around it: it is subtracted from the region's own time as a probe's
// cost is, once per recorded call whatever the call's sampling weight,
// while the call's time counts with its weight.
func TestRecordingCostIsNotOwnTime(t *testing.T) {
	loop := &region{Target: Target{ID: "main.f:loop@x.go:+1:2", Kind: Loop, File: "/src/x.go", Func: "main.f"},
		Index: 0, Parent: -1, Line: 3, End: 9, derivedFrom: -1, derivedMinus: -1}
	tr := &mpi.Trace{NP: 1, Ranks: []mpi.RankTrace{{Rank: 0, Events: []mpi.Event{
		{Op: "Send", T0: 0, T1: 200e-9, Site: "x.go:5", Rec: 100e-9, W: 4},
		{Op: "Recv", T0: 1e-6, T1: 1.3e-6, Site: "x.go:6", Rec: 50e-9},
		{Op: "Send", T0: 2e-6, T1: 2.1e-6, Site: "y.go:5", Rec: 70e-9}, // another file: not this loop's
	}}}}
	a := &aggregator{in: &Instrumented{Regions: []*region{loop}},
		plan: timerPlan{timed: map[int]bool{0: true}, vec: map[int]bool{}, apart: map[int]bool{}},
		m:    measured{counts: &probe.Counts{Regions: []probe.RegionCounts{{Execs: 1, Iters: 5, Ns: 3000}}}, trace: tr, np: 1}}
	a.run()
	mpiNs := 4*200.0 + 300
	if got := a.mpiNs[0]; math.Abs(got-mpiNs) > 1e-6 {
		t.Errorf("MPI time %g ns, want %g (the Send's 200 ns four times, the Recv's 300)", got, mpiNs)
	}
	if want := 3000 - mpiNs - 150; math.Abs(a.own[0]-want) > 1e-6 {
		t.Errorf("own time %g ns, want %g: the loop's 3000 less MPI and the 150 ns its two recorded calls took to record", a.own[0], want)
	}
	if math.Abs(a.probeNs-150) > 1e-6 {
		t.Errorf("subtracted %g ns of probe and trace costs, want 150", a.probeNs)
	}
}
