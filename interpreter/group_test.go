package interpreter

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// stepFunc is a Program written as a function of the previous result.
type stepFunc func(prev Result) (float64, Op, error)

func (f stepFunc) Step(prev Result) (float64, Op, error) { return f(prev) }

// splitThen is a rank that splits the world by color and key and then runs
// the operations then makes on the communicator it got.
func splitThen(color, key int, then func(g *Group) []Op, got **Group) Program {
	var rest []Op
	started := false
	return stepFunc(func(prev Result) (float64, Op, error) {
		if !started {
			started = true
			return 0, Op{Kind: OpSplit, Color: color, Key: key}, nil
		}
		if rest == nil {
			*got = prev.Group
			rest = append(then(prev.Group), Op{Kind: OpFinish})
		}
		op := rest[0]
		rest = rest[1:]
		return 0, op, nil
	})
}

// Split groups the ranks by color, orders each group by key (then world
// rank), gives ranks with a negative color no communicator, and the
// members of one group the same one.
func TestSplitMakesGroups(t *testing.T) {
	p := 7
	got := make([]*Group, p)
	progs := make([]Program, p)
	for r := range p {
		color := r % 3
		if r == 6 {
			color = -1
		}
		key := -r
		if r == 4 {
			key = -1 // ties with rank 1: the lower world rank first
		}
		progs[r] = splitThen(color, key, func(g *Group) []Op {
			if g == nil {
				return nil
			}
			return []Op{{Kind: OpAllreduce, Bytes: 8, Group: g}}
		}, &got[r])
	}
	run, err := Simulate(net1, progs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]int{0: {3, 0}, 1: {1, 4}, 2: {5, 2}}
	ids := map[int]bool{}
	for r := range p {
		g := got[r]
		if r == 6 {
			if g != nil {
				t.Errorf("rank 6 (negative color) got communicator %v", g.Members)
			}
			continue
		}
		if g == nil {
			t.Fatalf("rank %d got no communicator", r)
		}
		if !slices.Equal(g.Members, want[r%3]) {
			t.Errorf("rank %d: members %v, want %v", r, g.Members, want[r%3])
		}
		if me, ok := g.RankOf(r); !ok || g.Members[me] != r {
			t.Errorf("rank %d: RankOf gives %d, %v", r, me, ok)
		}
		if g != got[g.Members[0]] {
			t.Errorf("rank %d and rank %d got different communicators for one group", r, g.Members[0])
		}
		ids[g.ID] = true
	}
	if len(ids) != 3 || ids[0] {
		t.Errorf("communicator ids %v: want three, none 0 (the world's)", ids)
	}
	if want := int64(p + 6); run.Ops != want {
		t.Errorf("%d operations, want %d (7 Splits, 6 Allreduces)", run.Ops, want)
	}
}

// Collectives are numbered per communicator: ranks that call different
// numbers of collectives on their own groups still meet in the world's.
func TestGroupCollectivesNumberedApart(t *testing.T) {
	p := 4
	got := make([]*Group, p)
	progs := make([]Program, p)
	for r := range p {
		progs[r] = splitThen(r/2, r, func(g *Group) []Op {
			ops := []Op{{Kind: OpBarrier, Group: g}}
			if g.Members[0] == 2 {
				ops = append(ops, Op{Kind: OpBarrier, Group: g}, Op{Kind: OpBcast, Root: 3, Bytes: 100, Group: g})
			}
			return append(ops, Op{Kind: OpAllreduce, Bytes: 8})
		}, &got[r])
	}
	if _, err := Simulate(net1, progs, Options{}); err != nil {
		t.Fatal(err)
	}
}

// Messages on a communicator never match receives on another, even with
// wildcards; a message on the group goes to the member's world rank.
func TestGroupMessagesKeepToTheirCommunicator(t *testing.T) {
	got := make([]*Group, 3)
	var results []Result
	progs := []Program{
		// World rank 0 is rank 1 of the group {2, 0}.
		splitThen(0, 1, func(g *Group) []Op {
			return []Op{{Kind: OpSend, Peer: 2, Tag: 7, Bytes: 8, Group: g}, {Kind: OpSend, Peer: 2, Tag: 7, Bytes: 16}}
		}, &got[0]),
		splitThen(-1, 0, func(*Group) []Op { return nil }, &got[1]),
		nil,
	}
	recv := splitThen(0, 0, func(g *Group) []Op {
		return []Op{{Kind: OpRecv, Peer: AnySource, Tag: AnyTag, Bytes: 16}, {Kind: OpRecv, Peer: 0, Tag: 7, Bytes: 8, Group: g}}
	}, &got[2])
	progs[2] = stepFunc(func(prev Result) (float64, Op, error) {
		results = append(results, prev)
		return recv.Step(prev)
	})
	if _, err := Simulate(net1, progs, Options{}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got[2].Members, []int{2, 0}) {
		t.Fatalf("group %v, want [2 0]", got[2].Members)
	}
	// results: the start, Split, the world receive, the group receive.
	if len(results) != 4 || results[2].Bytes != 16 || results[3].Bytes != 8 || results[3].Source != 0 {
		t.Errorf("receives got %+v, want the world's 16 bytes first, then the group's 8 from world rank 0", results[2:])
	}
}

// A collective on a group costs what the same collective costs on a world
// of the group's size.
func TestGroupCollectiveCostsAsItsSize(t *testing.T) {
	got := make([]*Group, 6)
	progs := make([]Program, 6)
	for r := range 6 {
		progs[r] = splitThen(r%2, r, func(g *Group) []Op {
			return []Op{{Kind: OpMark, Tag: 1, Req: 1}, {Kind: OpBcast, Root: g.Members[0], Bytes: 1000, Group: g}, {Kind: OpMark, Req: 1}}
		}, &got[r])
	}
	split, err := Simulate(net1, progs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	world := make([]Program, 3)
	for r := range world {
		world[r] = ops(Op{Kind: OpBcast, Root: 0, Bytes: 1000})
	}
	flat, err := Simulate(net1, world, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The linear Allgather of Split leaves rank 0 of each group last, so
	// the roots start their Bcasts no earlier than the others: the
	// receivers' times from the root's start are the world's.
	for color := range 2 {
		g := got[color]
		start := split.Marks[g.Members[0]][0].T
		for i, w := range g.Members {
			end := split.Marks[w][1].T
			near(t, "member finish after the root's start", end-start, flat.Ranks[i].Finish)
		}
	}
}

func TestSplitErrors(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/split")
	sp, err := NewSSAPrograms(prog, pkg, &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-6}, 4, ExecOptions{Args: []string{"-nil"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Simulate(net1, sp.Programs(), Options{})
	var re *RankError
	if !errors.As(err, &re) || re.Rank != 0 || !strings.Contains(err.Error(), "nil communicator") || !strings.Contains(err.Error(), "main.go:") {
		t.Errorf("rank 0 using the nil communicator: got %v", err)
	}
}

// The SSA ranks answer Rank and Size per communicator, put ranks of the
// communicator into world ranks for the simulator and back into the
// status, and carry broadcast values on the communicator they were sent.
func TestSplitCommunicatorsInSSA(t *testing.T) {
	for _, p := range []int{1, 4, 5} {
		run, sp := simulateTestdata(t, "./testdata/split", p)
		for r := range p {
			// Columns hold the world ranks of one parity, the highest first.
			top := r
			for top+2 < p {
				top += 2
			}
			colRank := (top - r) / 2
			rowSize := min(2, p-r/2*2)
			rowRank := r % 2
			in, src := r, 0 // alone in its row: it swaps with itself
			if rowSize == 2 {
				in, src = r^1, 1-rowRank
			}
			id := ((((top*100+in)*10+src)*10+rowRank)*10+rowSize)*10 + colRank
			oddID := 1000
			if r%2 == 1 {
				oddID += 10*(p/2) + r/2
			}
			marks := run.Marks[r]
			if len(marks) != 4 || marks[0].ID != id || marks[2].ID != oddID {
				t.Errorf("P = %d rank %d: marks %+v, want ids %d and %d (%v)", p, r, marks, id, oddID, sp.Assumptions())
			}
		}
	}
}

// A rank that never joins its communicator's Split leaves the others
// blocked in it, reported as such.
func TestSplitDeadlockReported(t *testing.T) {
	var g *Group
	_, err := Simulate(net1, []Program{
		splitThen(0, 0, func(*Group) []Op { return nil }, &g),
		ops(),
	}, Options{})
	var d *DeadlockError
	if !errors.As(err, &d) || len(d.Blocked) != 1 || d.Blocked[0].Rank != 0 || d.Blocked[0].Op != "Split()" {
		t.Errorf("got %v, want rank 0 blocked in Split()", err)
	}
}

// A Split of a communicator Split made groups its members by their ranks
// in it, and its ranks are world ranks again in the new group.
func TestSplitOfAGroup(t *testing.T) {
	p := 6
	got := make([]*Group, p)
	progs := make([]Program, p)
	for r := range p {
		var half *Group
		step := 0
		progs[r] = stepFunc(func(prev Result) (float64, Op, error) {
			step++
			switch step {
			case 1:
				return 0, Op{Kind: OpSplit, Color: r / 3, Key: r}, nil
			case 2:
				half = prev.Group
				me, _ := half.RankOf(r)
				// Within each half: ranks 0 and 2 of the half together,
				// in reverse order; rank 1 alone.
				return 0, Op{Kind: OpSplit, Group: half, Color: me % 2, Key: -me}, nil
			case 3:
				got[r] = prev.Group
				return 0, Op{Kind: OpBarrier, Group: prev.Group}, nil
			}
			return 0, Op{Kind: OpFinish}, nil
		})
	}
	if _, err := Simulate(net1, progs, Options{}); err != nil {
		t.Fatal(err)
	}
	want := [][]int{{2, 0}, {1}, {2, 0}, {5, 3}, {4}, {5, 3}}
	for r := range p {
		if !slices.Equal(got[r].Members, want[r]) {
			t.Errorf("rank %d: members %v, want %v", r, got[r].Members, want[r])
		}
	}
}

// A rank blocked on a communicator Split made is reported with it: ranks
// are world ranks, so the report names the communicator's members.
func TestGroupDeadlockNamesTheCommunicator(t *testing.T) {
	var g0, g1 *Group
	_, err := Simulate(net1, []Program{
		splitThen(0, 0, func(g *Group) []Op { return []Op{{Kind: OpBcast, Root: 1, Bytes: 8, Group: g}} }, &g0),
		splitThen(0, 1, func(*Group) []Op { return nil }, &g1),
	}, Options{})
	var d *DeadlockError
	if !errors.As(err, &d) || len(d.Blocked) != 1 || d.Blocked[0].Op != "Bcast(root 1) on communicator 1 (world ranks 0 1)" {
		t.Errorf("got %v, want rank 0 blocked in Bcast(root 1) on communicator 1 (world ranks 0 1)", err)
	}
	big := newGroup(3, []int{9, 8, 7, 6, 5, 4, 3, 2, 1, 0})
	if got, want := big.String(), "communicator 3 (world ranks 9 8 7 6 5 4 3 2 ... 10 ranks in all)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
