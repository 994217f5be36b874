package interpreter

import (
	"fmt"
	"strings"
	"testing"
)

// soloScript is a script whose compute costs half as much for a rank
// alone on its node.
type soloScript struct {
	script
	solo bool
	last float64
}

func (s *soloScript) Step(prev Result) (float64, Op, error) {
	c, op, err := s.script.Step(prev)
	s.last = c
	return c, op, err
}
func (s *soloScript) Solo() { s.solo = true }
func (s *soloScript) SoloCompute() float64 {
	if !s.solo {
		return s.last
	}
	return s.last / 2
}

// barrierThen is a rank that computes before a barrier and tail after it.
func barrierThen(before, tail float64) *soloScript {
	return &soloScript{script: script{compute: []float64{before, tail}, ops: []Op{{Kind: OpBarrier}}}}
}

// TestTailAloneOnItsNode: the rank that computes on after the other ranks
// of its node have finished pays the alone price from the moment the last
// of them finished; ranks with a node to themselves, and a rank whose
// node-mate is still computing, keep theirs.
func TestTailAloneOnItsNode(t *testing.T) {
	simulate := func(node []int, tails ...float64) *Run {
		t.Helper()
		progs := make([]Program, len(tails))
		for i, tl := range tails {
			progs[i] = barrierThen(0.1, tl)
		}
		run, err := Simulate(net1, progs, Options{Node: node, Timeline: true})
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	// Rank 0's tail is alone from rank 1's finish on (rank 1 leaves the
	// barrier a little after rank 0, its root, even without a tail).
	alone := func(p *Run) [2]float64 {
		f1 := p.Ranks[1].Finish
		return [2]float64{f1 + (p.Ranks[0].Finish-f1)/2, f1}
	}
	for _, tc := range []struct {
		name  string
		node  []int
		tails []float64
		want  func(plain *Run) [2]float64
	}{
		{"alone after the other finished", []int{0, 0}, []float64{1.0, 0}, alone},
		{"alone once the other's tail ended", []int{0, 0}, []float64{1.0, 0.4}, alone},
		{"a node each", []int{0, 1}, []float64{1.0, 0.4}, func(p *Run) [2]float64 {
			return [2]float64{p.Ranks[0].Finish, p.Ranks[1].Finish}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := simulate(nil, tc.tails...)
			run := simulate(tc.node, tc.tails...)
			want := tc.want(base)
			for r := range 2 {
				near(t, fmt.Sprintf("rank %d's finish", r), run.Ranks[r].Finish, want[r])
			}
			near(t, "makespan", run.Makespan, max(want[0], want[1]))
			// The compute and the timeline follow.
			near(t, "rank 0's compute", run.Ranks[0].Compute, base.Ranks[0].Compute-(base.Ranks[0].Finish-want[0]))
			segs := run.Timelines[0]
			near(t, "rank 0's last segment's end", segs[len(segs)-1].End, want[0])
		})
	}
}

// TestTailAloneWhenBothRanksComputeOn: of two ranks with tails on one
// node, only the part of the longer one after the shorter ended is alone.
func TestTailAloneWhenBothRanksComputeOn(t *testing.T) {
	progs := func() []Program { return []Program{barrierThen(0.1, 0.3), barrierThen(0.1, 0.9)} }
	plain, err := Simulate(net1, progs(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	run, err := Simulate(net1, progs(), Options{Node: []int{3, 3}})
	if err != nil {
		t.Fatal(err)
	}
	f0 := plain.Ranks[0].Finish
	near(t, "rank 0's finish", run.Ranks[0].Finish, f0)
	near(t, "rank 1's finish", run.Ranks[1].Finish, f0+(plain.Ranks[1].Finish-f0)/2)
}

func TestNodeNumbersChecked(t *testing.T) {
	_, err := Simulate(net1, []Program{barrierThen(0, 1), barrierThen(0, 1)}, Options{Node: []int{0}})
	if err == nil || !strings.Contains(err.Error(), "1 node numbers for 2 ranks") {
		t.Fatalf("err = %v, want one about the node numbers", err)
	}
	_, err = Simulate(net1, []Program{barrierThen(0, 1)}, Options{Node: []int{-1}})
	if err == nil || !strings.Contains(err.Error(), "rank 0 on node -1") {
		t.Fatalf("err = %v, want one about rank 0's node", err)
	}
}

// TestHeadAloneOnItsNode: rank 0 computes 1 s before the barrier, rank 1
// 0.1 s: from 0.1 s on, rank 1 waits in the barrier, which cannot end
// without rank 0, and rank 0 computes alone, at half the price: its head
// takes 0.1 + 0.9/2 = 0.55 s. Ranks with a node each keep theirs, and so
// does a rank whose node-mate waits for a message from another node
// (which may let it compute again before the head ends).
func TestHeadAloneOnItsNode(t *testing.T) {
	simulate := func(node []int, progs ...Program) *Run {
		t.Helper()
		run, err := Simulate(net1, progs, Options{Node: node, Timeline: true})
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	run := simulate([]int{0, 0}, barrierThen(1, 0), barrierThen(0.1, 0))
	near(t, "rank 0's compute", run.Ranks[0].Compute, 0.55)
	near(t, "rank 0's first segment's end", run.Timelines[0][0].End, 0.55)
	near(t, "rank 1's compute", run.Ranks[1].Compute, 0.1)
	apart := simulate([]int{0, 1}, barrierThen(1, 0), barrierThen(0.1, 0))
	near(t, "a node each: rank 0's compute", apart.Ranks[0].Compute, 1)
	recv := &soloScript{script: script{compute: []float64{0.1}, ops: []Op{{Kind: OpRecv, Peer: 2, Bytes: 8}, {Kind: OpBarrier}}}}
	send := &soloScript{script: script{ops: []Op{{Kind: OpSend, Peer: 1, Bytes: 8}, {Kind: OpBarrier}}}}
	other := simulate([]int{0, 0, 1}, barrierThen(1, 0), recv, send)
	near(t, "mate waiting on another node: rank 0's compute", other.Ranks[0].Compute, 1)
}
