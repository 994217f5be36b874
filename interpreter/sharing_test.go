package interpreter

import (
	"math"
	"testing"
)

// TestSharingCores checks processor sharing on a node of 2 cores with 4
// ranks: equal work takes twice as long; of unequal work the long rank
// runs at full speed once the others are done; a rank computing alone
// while the others wait gets a whole core.
func TestSharingCores(t *testing.T) {
	// work is a rank that computes c seconds and finishes.
	work := func(cs ...float64) func() []Program {
		return func() []Program {
			var progs []Program
			for _, c := range cs {
				progs = append(progs, &script{compute: []float64{c}, ops: []Op{{Kind: OpFinish}}})
			}
			return progs
		}
	}
	sharing := &Sharing{Node: []int{0, 0, 0, 0}, Cores: []float64{2}, Quantum: 1e-3}
	for _, tc := range []struct {
		name  string
		progs func() []Program
		share *Sharing
		want  float64
		tol   float64 // a quantum of the longest compute, by which speed changes lag
	}{
		{"equal work, own cores", work(1, 1, 1, 1), nil, 1, 1e-9},
		{"equal work, shared", work(1, 1, 1, 1), sharing, 2, 1e-9},
		// All four at half speed until t = 2, then the long one alone.
		{"unequal work, shared", work(1, 1, 1, 3), sharing, 4, 3.0 / maxQuanta},
	} {
		run, err := Simulate(net1, tc.progs(), Options{Sharing: tc.share})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(run.Makespan-tc.want) > tc.tol {
			t.Errorf("%s: makespan %.12g, want %g", tc.name, run.Makespan, tc.want)
		}
	}

	// Rank 0 computes 1 s alone while the others wait in a broadcast,
	// then all four compute 1 s: 1 + 2 s and the broadcast's few
	// microseconds.
	progs := make([]Program, 4)
	for r := range progs {
		first := 0.0
		if r == 0 {
			first = 1
		}
		progs[r] = &script{compute: []float64{first, 1}, ops: []Op{{Kind: OpBcast, Root: 0, Bytes: 8}, {Kind: OpFinish}}}
	}
	run, err := Simulate(net1, progs, Options{Sharing: sharing, Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	if run.Makespan < 3 || run.Makespan > 3.0001 {
		t.Errorf("serial phase then shared: makespan %.9g, want 3 and the broadcast", run.Makespan)
	}
	// The quanta of a compute stretch make one timeline segment.
	if n := len(run.Timelines[1]); n > 3 {
		t.Errorf("rank 1's timeline has %d segments: %+v", n, run.Timelines[1])
	}
}

// Ranks that synchronise get Between cores between their first and last
// operations, the node's cores before and after: four ranks on two cores
// each set up for 1 s (2 s shared), compute 1 s between two barriers on
// one core (4 s) and check for 1 s after (2 s).
func TestSharingCoresBetweenOperations(t *testing.T) {
	progs := func() []Program {
		out := make([]Program, 4)
		for r := range out {
			out[r] = &script{compute: []float64{1, 1, 1}, ops: []Op{{Kind: OpBarrier}, {Kind: OpBarrier}}}
		}
		return out
	}
	for _, tc := range []struct {
		between []float64
		want    float64
	}{{nil, 6}, {[]float64{1}, 8}} {
		sh := &Sharing{Node: []int{0, 0, 0, 0}, Cores: []float64{2}, Quantum: 1e-3, Between: tc.between, Last: []int{2, 2, 2, 2}}
		run, err := Simulate(net1, progs(), Options{Sharing: sh})
		if err != nil {
			t.Fatal(err)
		}
		if run.Makespan < tc.want || run.Makespan > tc.want+1e-3 {
			t.Errorf("cores between operations %v: makespan %.9g, want %g and the barriers", tc.between, run.Makespan, tc.want)
		}
	}
}

// TestSharingErrors checks that a malformed Sharing is refused.
func TestSharingErrors(t *testing.T) {
	progs := []Program{ops(), ops()}
	for _, sh := range []*Sharing{
		{Node: []int{0}, Cores: []float64{1}},
		{Node: []int{0, 1}, Cores: []float64{1}},
		{Node: []int{0, 0}, Cores: []float64{0}},
		{Node: []int{0, 0}, Cores: []float64{1}, Between: []float64{1, 1}},
		{Node: []int{0, 0}, Cores: []float64{1}, Between: []float64{0}},
	} {
		if _, err := Simulate(net1, progs, Options{Sharing: sh}); err == nil {
			t.Errorf("%+v: no error", sh)
		}
	}
}
