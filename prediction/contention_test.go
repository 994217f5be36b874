package prediction

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/profiler"
)

// TestNodeContention checks where a region's slowdown with k ranks on a
// node comes from: its own contention runs, the program's mean for a
// region with little own time, the machine's table past the runs and
// without them.
func TestNodeContention(t *testing.T) {
	m := &commmodel.Machine{Name: "test", ComputeSlowdown: []commmodel.SlowdownRow{{PPN: 1, Factor: 1}, {PPN: 2, Factor: 1.1}, {PPN: 8, Factor: 1.65}}}
	prof := &profiler.Profile{Regions: []profiler.Region{
		{ID: "stencil", Timed: true, OwnNs: 900},
		{ID: "kernel", Timed: true, OwnNs: 95},
		{ID: "tiny", Timed: true, OwnNs: 5},
	}}
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-9 }

	none := newNodeContention(m, prof)
	if got := none.regions([]string{"stencil"}, 2); !near(got, 1.1) {
		t.Errorf("without runs: %v, want the table's 1.1", got)
	}

	prof.Contention = &profiler.Contention{PPN: []int{1, 2, 4}, Total: []float64{1, 1.6, 2.5},
		Regions: map[string][]float64{"stencil": {1, 1.8, 3}, "kernel": {1, 0.9, 1.2}, "tiny": {1, 7, 9}}}
	n := newNodeContention(m, prof)
	for _, tc := range []struct {
		ids  []string
		k    int
		want float64
	}{
		{[]string{"stencil"}, 1, 1},
		{[]string{"stencil"}, 2, 1.8},
		{[]string{"stencil"}, 3, 2.4},                           // between the runs at 2 and 4
		{[]string{"stencil"}, 8, 3 * 1.65 / m.ComputeFactor(4)}, // past them: the table's growth
		{[]string{"kernel"}, 2, 0.9},                            // a cache effect: faster with less data each
		{[]string{"tiny"}, 2, 1.6},                              // too little own time: the program's mean
		{[]string{"missing"}, 2, 1.6},                           // not in the profile: the program's mean
		{[]string{"stencil", "kernel"}, 2, (900*1.8 + 95*0.9) / 995},
	} {
		if got := n.regions(tc.ids, tc.k); !near(got, tc.want) {
			t.Errorf("regions(%v, %d) = %v, want %v", tc.ids, tc.k, got, tc.want)
		}
	}
	if got := n.total(2); !near(got, 1.6) {
		t.Errorf("total(2) = %v, want 1.6", got)
	}

	// A region that the runs did not measure (no own time with one rank)
	// takes the machine's table, not the program's mean.
	prof.Contention.Regions["kernel"] = []float64{0, 0, 0}
	if got := newNodeContention(m, prof).regions([]string{"kernel"}, 2); !near(got, 1.1) {
		t.Errorf("unmeasured region: %v, want the table's 1.1", got)
	}
	// Runs that measured regions with less than half the compute (a
	// ping-pong, which exchanges nothing with one rank) are not used.
	prof.Contention.Regions["stencil"] = []float64{0, 2, 2}
	sparse := newNodeContention(m, prof)
	if got := sparse.regions([]string{"tiny"}, 2); !near(got, 1.1) {
		t.Errorf("runs covering 0.5%% of the compute: %v, want the table's 1.1", got)
	}
	if src := sparse.source(); !strings.Contains(src, "only 0%") && !strings.Contains(src, "only 1%") {
		t.Errorf("note on unusable runs: %q", src)
	}

	// Runs that do not start at one rank are relative to something else:
	// not used.
	prof.Contention = &profiler.Contention{PPN: []int{2, 4}, Total: []float64{1, 1.5}, Regions: map[string][]float64{"stencil": {1, 1.5}}}
	if got := newNodeContention(m, prof).regions([]string{"stencil"}, 4); !near(got, m.ComputeFactor(4)) {
		t.Errorf("runs from 2 ranks: %v, want the table's %v", got, m.ComputeFactor(4))
	}
}

// TestFilledRegionsCarryTheirRunsContention: a region the profiled run
// never reached has the numbers of the contention run at 2 ranks, two
// ranks' contention in them already; at k ranks it slows down by the
// program's slowdown at k over that at 2, not at k again.
func TestFilledRegionsCarryTheirRunsContention(t *testing.T) {
	m := &commmodel.Machine{Name: "test", ComputeSlowdown: []commmodel.SlowdownRow{{PPN: 1, Factor: 1}, {PPN: 2, Factor: 1.1}, {PPN: 8, Factor: 1.65}}}
	prof := &profiler.Profile{Regions: []profiler.Region{
		{ID: "sort", Timed: true, OwnNs: 900},
		{ID: "merge", Timed: true, OwnNs: 400, Ranks: 2},
	}, Contention: &profiler.Contention{PPN: []int{1, 2, 4}, Total: []float64{1, 1.2, 1.5},
		Regions: map[string][]float64{"sort": {1, 1.2, 1.5}, "merge": {0, 0, 0}}}}
	n := newNodeContention(m, prof)
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-9 }
	for _, tc := range []struct {
		ids  []string
		k    int
		want float64
	}{
		{[]string{"merge"}, 2, 1},
		{[]string{"merge"}, 4, 1.5 / 1.2},
		{[]string{"merge"}, 1, 1 / 1.2},
		{[]string{"sort"}, 4, 1.5},
		{[]string{"sort", "merge"}, 4, 1.5}, // the profiled run's region decides
	} {
		if got := n.regions(tc.ids, tc.k); !near(got, tc.want) {
			t.Errorf("%v at %d ranks: %v, want %v", tc.ids, tc.k, got, tc.want)
		}
	}
	prof.Contention = nil
	if got, want := newNodeContention(m, prof).regions([]string{"merge"}, 8), 1.65/1.1; !near(got, want) {
		t.Errorf("without usable runs, merge at 8 ranks: %v, want the table's 1.65 over its 1.1 at 2", got)
	}
}

// TestLengthsFromContentionRuns checks the length a library call is
// assumed to be given at p ranks where the rank cannot know it: the
// contention runs' mean per call at p, else a power of the rank count
// through the two nearest runs, growing at most in proportion.
func TestLengthsFromContentionRuns(t *testing.T) {
	m := &commmodel.Machine{Name: "test"}
	prof := &profiler.Profile{Contention: &profiler.Contention{PPN: []int{1, 2, 4}, Total: []float64{1, 1, 1},
		Lengths: map[string][]float64{
			"share":    {400, 200, 100},
			"replica":  {50, 50, 50},
			"gathered": {10, 1000, 4000},
			"skipped":  {0, 200, 100},
			"once":     {0, 0, 300},
		}}}
	n := newNodeContention(m, prof)
	for _, tc := range []struct {
		id   string
		p    int
		want float64
		ok   bool
		why  string
	}{
		{"share", 2, 200, true, "in the profile's run at 2 ranks"},
		{"share", 1, 400, true, "at 1 rank"},
		{"share", 3, 400.0 / 3, true, "interpolated between its means in the profile's runs at 2 and 4 ranks (200, 100)"},
		{"share", 16, 25, true, "extrapolated from its means in the profile's runs at 2 and 4 ranks"},
		{"replica", 64, 50, true, "extrapolated"},
		{"gathered", 8, 8000, true, "extrapolated"}, // grows as 1000 -> 4000, taken as p
		{"skipped", 1, 0, false, ""},                // not called at one rank
		{"skipped", 8, 50, true, "extrapolated"},
		{"missing", 2, 0, false, ""},
		{"once", 8, 150, true, "the only run that had one, in proportion to 1/P"},
		{"once", 2, 0, false, ""}, // below the run that had one
	} {
		got, why, ok := n.length(tc.id, tc.p)
		if ok != tc.ok || math.Abs(got-tc.want) > 1e-9*tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("length(%s, %d) = %v, %q, %v; want %v, %q, %v", tc.id, tc.p, got, why, ok, tc.want, tc.why, tc.ok)
		}
	}
	prof.Contention.Lengths = nil
	if _, _, ok := newNodeContention(m, prof).length("share", 2); ok {
		t.Error("a profile without lengths gave one")
	}
}

// TestSmallSortKeepsItsSlowdown: a library call costed per element with
// little own time at one rank (a sort of sorted data) keeps its own
// slowdown where that gives it a fair share at k ranks (its data is no
// longer sorted there); other small regions take the program's mean.
func TestSmallSortKeepsItsSlowdown(t *testing.T) {
	m := &commmodel.Machine{Name: "test"}
	prof := &profiler.Profile{
		Regions: []profiler.Region{
			{ID: "sort1", Timed: true, OwnNs: 9950},
			{ID: "sort2", Timed: true, OwnNs: 50},
			{ID: "startup", Timed: true, OwnNs: 50},
		},
		Contention: &profiler.Contention{PPN: []int{1, 2}, Total: []float64{1, 1.1},
			Regions: map[string][]float64{"sort1": {1, 1.1}, "sort2": {1, 40}, "startup": {1, 40}},
			Lengths: map[string][]float64{"sort1": {1000, 500}, "sort2": {1000, 500}}},
	}
	n := newNodeContention(m, prof)
	if got := n.regions([]string{"sort2"}, 2); got != 40 {
		t.Errorf("sort2 at 2 ranks: %v, want its own 40", got)
	}
	if got := n.regions([]string{"startup"}, 2); got != 1.1 {
		t.Errorf("start-up code at 2 ranks: %v, want the program's 1.1", got)
	}
	prof.Contention.Regions["sort2"] = []float64{1, 1.5} // 0.75 % of the compute at 2 ranks
	if got := newNodeContention(m, prof).regions([]string{"sort2"}, 2); got != 1.1 {
		t.Errorf("sort2 slowed down 1.5 times: %v, want the program's 1.1", got)
	}
}

// TestContentionSlowsRegions predicts heat at two ranks on one node with
// and without contention runs in its profile that say its stencil runs
// twice as slow with two ranks: the ranks' compute nearly doubles.
func TestContentionSlowsRegions(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	// Enough steps for the stencil to outweigh the set-up (allocation,
	// initGrid) by far.
	args := []string{"-n", "256", "-steps", "400", "-check=false"}
	opts := SpeedupOptions{Dir: "..", Package: "./examples/heat", Args: args,
		ProfileOut: filepath.Join(t.TempDir(), "heat.profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	compute := func() float64 {
		run, _, err := simulate(mp, oracle, m, 2, 1, 2, commmodel.Block, args, interpreter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return maxCompute(run)
	}
	// The machine's table alone, then runs in which every region but the
	// stencil keeps its speed.
	oracle.prof.Contention = nil
	oracle.contention = nil
	plain := compute() / m.ComputeFactor(2)
	c := &profiler.Contention{PPN: []int{1, 2}, Total: []float64{1, 1}, Regions: map[string][]float64{}}
	stencil := ""
	for _, r := range oracle.prof.Regions {
		if r.Timed && r.OwnNs > 0 {
			c.Regions[r.ID] = []float64{1, 1}
			if strings.HasPrefix(r.ID, "main.jacobiStep:loop") {
				c.Regions[r.ID], stencil = []float64{1, 2}, r.ID
			}
		}
	}
	if stencil == "" {
		t.Fatal("no timed stencil loop in the profile")
	}
	oracle.prof.Contention, oracle.contention = c, nil
	slowed := compute()
	if r := slowed / plain; r < 1.7 || r > 2.05 {
		t.Errorf("compute with the stencil twice as slow: %.3g times the uncontended %.3g s, want about 2", r, plain)
	}
}

// A reduced nest slows down on a shared node as its loops' own times do,
// each weighed by its own time: shapes' nest root (the repetitions) has
// a few microseconds of own time around the inner loop that holds the
// work, so the root's ratio alone, or the program's mean standing in for
// a region that small, is not the nest's.
func TestNestContentionWeighsItsLoops(t *testing.T) {
	const root, inner = "main.areas:loop@main.go:+2:2", "main.areas:loop@main.go:+3:3"
	got := nestSlowdown(t, "./prediction/testdata/shapes", []string{"-n", "20000", "-steps", "3"}, root, inner,
		map[string][]float64{root: {1, 10}, inner: {1, 1.02}})
	if got < 1.01 || got > 1.05 {
		t.Errorf("the nest's slowdown with 2 ranks is %.3f, want about the inner loop's 1.02", got)
	}
}

// A nest whose time is spent in the functions it calls slows down as
// their regions do: mandelbrot's row loop has no own time of its own
// around mandelRow's pixel loop, so neither its ratio nor the program's
// mean, which took its place, is the nest's (predictions 17 % slow at
// 4-16 ranks on a 16-core machine, docs/validation.md).
func TestNestContentionFollowsItsCalls(t *testing.T) {
	const rows, pixels = "main.run:loop@main.go:+15:2", "main.mandelRow:loop@kernels.go:+2:2"
	got := nestSlowdown(t, "./examples/mandelbrot", []string{"-width", "128", "-height", "128", "-check=false"}, rows, pixels,
		map[string][]float64{pixels: {1, 1.02}})
	if got < 1.01 || got > 1.05 {
		t.Errorf("the row loop's slowdown with 2 ranks is %.3f, want about the pixel loop's 1.02", got)
	}
}

// nestSlowdown profiles pkg with args, checks that the sources of the
// nest rooted at loop nest include region work, and returns the nest's
// slowdown with 2 ranks when the contention runs read 1.5 for every timed
// region (the program's mean too) but those in ratios.
func nestSlowdown(t *testing.T, pkg string, args []string, nest, work string, ratios map[string][]float64) float64 {
	t.Helper()
	if testing.Short() {
		t.Skip("profiles a program")
	}
	opts := SpeedupOptions{Dir: "..", Package: pkg, NP: []int{1}, Args: args,
		ProfileArgs: args, ProfileOut: filepath.Join(t.TempDir(), "profile.json")}
	_, oracle, m := prepareOnIBQDR(t, opts)
	ids := oracle.sources[nest]
	if !slices.Contains(ids, nest) || !slices.Contains(ids, work) {
		t.Fatalf("the sources of nest %s are %v, want it and %s", nest, ids, work)
	}
	prof := *oracle.prof
	prof.Contention = &profiler.Contention{PPN: []int{1, 2}, Total: []float64{1, 1.5}, Regions: map[string][]float64{}}
	for _, r := range prof.Regions {
		if r.Timed && r.OwnNs > 0 {
			prof.Contention.Regions[r.ID] = []float64{1, 1.5}
		}
	}
	for id, v := range ratios {
		prof.Contention.Regions[id] = v
	}
	return newNodeContention(m, &prof).regions(ids, 2)
}

// The lockstep rows that apply are those of the ranks that synchronise
// often: a ping-pong's two, not the ranks that wait once at the end, and
// every rank of a program whose rank 0 sends all the blocks of a scatter
// (messages would count rank 0 alone).
func TestLockstepRanksCountsTheRanksThatSynchronise(t *testing.T) {
	pl := &commmodel.Placement{P: 16, Nodes: 2, PPN: 8, Node: make([]int, 16)}
	for r := range pl.Node {
		pl.Node[r] = r / 8
	}
	run := func(ops, sent func(r int) int) *interpreter.Run {
		ru := &interpreter.Run{Ranks: make([]interpreter.RankStats, 16)}
		for r := range ru.Ranks {
			ru.Ranks[r].Ops, ru.Ranks[r].Sent = ops(r), sent(r)
		}
		return ru
	}
	pingpong := run(func(r int) int {
		if r < 2 {
			return 4000
		}
		return 2
	}, func(r int) int { return min(r, 2) * 2000 })
	if got := lockstepRanks(pingpong, pl); got != 2 {
		t.Errorf("ping-pong between ranks 0 and 1 of 16: lockstep ranks %d, want 2", got)
	}
	scatter := run(func(int) int { return 3 }, func(r int) int {
		if r == 0 {
			return 45
		}
		return 1
	})
	if got := lockstepRanks(scatter, pl); got != 8 {
		t.Errorf("scatter, broadcast and gather on every rank: lockstep ranks %d, want 8 (a node's)", got)
	}
	idle := run(func(int) int { return 0 }, func(int) int { return 0 })
	if got := lockstepRanks(idle, pl); got != 8 {
		t.Errorf("no MPI operations: lockstep ranks %d, want 8", got)
	}
}

// A ping-pong's idle ranks do not make its two ranks synchronise as a
// node full of ranks would: a lockstep table in which 8 ranks exchanging
// often get a tenth of a core leaves P = 8 as it is without the table (a
// 16-core machine's table predicted pingpong 82 % slow at P = 16,
// docs/validation.md).
func TestIdleRanksDoNotLockstep(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-reps", "50", "-max", "4096"}
	opts := SpeedupOptions{Dir: "..", Package: "./examples/pingpong", NP: []int{2}, Args: args,
		ProfileArgs: args, ProfileOut: filepath.Join(t.TempDir(), "profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	interval := func() float64 {
		run, _, err := simulate(mp, oracle, m, 8, 1, 8, commmodel.Block, args, interpreter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t1, ok := run.Interval(1)
		if !ok {
			t.Fatal("pingpong never marks interval 1")
		}
		return t1
	}
	m.Lockstep = nil
	free := interval()
	for _, c := range []float64{1e-6, 1e-3} {
		m.Lockstep = append(m.Lockstep, commmodel.LockstepRow{Ranks: 2, Compute: c, Cores: 2},
			commmodel.LockstepRow{Ranks: 8, Compute: c, Cores: 0.1})
	}
	slices.SortFunc(m.Lockstep, func(a, b commmodel.LockstepRow) int {
		if a.Ranks != b.Ranks {
			return a.Ranks - b.Ranks
		}
		return int(math.Copysign(1, a.Compute-b.Compute))
	})
	if got := interval(); math.Abs(got/free-1) > 0.02 {
		t.Errorf("pingpong's interval at P = 8 is %.3g s with 8 ranks in lockstep getting a tenth of a core, %.3g s without the table; want the same", got, free)
	}
}

// A rank that checks the result alone after the last gather (heat's
// default -check) does not turn the lockstep table off for the loop
// before it, nor is its check stretched: the table counts and stretches
// the compute between each rank's first and last MPI operation. Counted
// over whole runs, the check made heat's and cg's ranks look mostly idle,
// and their loops at 8 and 16 ranks of a 16-core machine were predicted
// 65-86 % short (docs/validation.md).
func TestSerialCheckKeepsLockstep(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "66", "-steps", "300"} // and -check: a serial Jacobi run on rank 0 after the gather
	opts := SpeedupOptions{Dir: "..", Package: "./examples/heat", NP: []int{4}, Args: args,
		ProfileArgs: args, ProfileOut: filepath.Join(t.TempDir(), "profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	sim := func() (interval, makespan float64) {
		run, _, err := simulate(mp, oracle, m, 4, 1, 4, commmodel.Block, args, interpreter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t1, ok := run.Interval(1)
		if !ok {
			t.Fatal("heat never marks interval 1")
		}
		return t1, run.Makespan
	}
	m.Lockstep = nil
	freeLoop, freeAll := sim()
	for _, c := range []float64{1e-7, 1} { // 4 ranks in lockstep get one core, whatever their compute
		m.Lockstep = append(m.Lockstep, commmodel.LockstepRow{Ranks: 2, Compute: c, Cores: 0.5},
			commmodel.LockstepRow{Ranks: 4, Compute: c, Cores: 1})
	}
	slices.SortFunc(m.Lockstep, func(a, b commmodel.LockstepRow) int {
		if a.Ranks != b.Ranks {
			return a.Ranks - b.Ranks
		}
		return int(math.Copysign(1, a.Compute-b.Compute))
	})
	loop, all := sim()
	if loop < 2*freeLoop { // 4x the compute between operations, not their communication
		t.Errorf("heat's loop at P = 4: %.3g s with 4 ranks in lockstep on one core, %.3g s without the table; want it stretched", loop, freeLoop)
	}
	if grown := all - freeAll; grown > 1.2*(loop-freeLoop) {
		t.Errorf("the whole run grew by %.3g s, its loop by %.3g s: the serial check after the last operation was stretched too", grown, loop-freeLoop)
	}
}

// TestComputeStretchWeighsRanksByCompute: the grain at which the lockstep
// table is read is each rank's mean compute between its operations,
// weighted by that compute. Ranks alike give their common gap; a farm's
// master, 400 operations with next to nothing between them, leaves its
// seven workers' 24 us gap as it is (the plain mean of every gap gave 13
// us, read as ranks losing more than half their cores at 8 ranks).
func TestComputeStretchWeighsRanksByCompute(t *testing.T) {
	alike := &interpreter.Run{Ranks: []interpreter.RankStats{{Ops: 11, Between: 1e-3}, {Ops: 11, Between: 1e-3}}}
	if got := computeStretch(alike, 1); math.Abs(got-1e-4) > 1e-12 {
		t.Errorf("ranks alike: grain %g, want 1e-4", got)
	}
	farm := &interpreter.Run{Ranks: []interpreter.RankStats{{Ops: 401, Between: 1e-5}}}
	for range 7 {
		farm.Ranks = append(farm.Ranks, interpreter.RankStats{Ops: 115, Between: 114 * 24e-6})
	}
	if got := computeStretch(farm, 2); math.Abs(got-12e-6) > 0.01e-6 {
		t.Errorf("farm: grain %g, want the workers' 24 us over the factor 2", got)
	}
}

// TestTripsNoteSaysOneRun: a loop that only the 2-rank contention run
// entered (a merge of what the partner sent) is extrapolated in
// proportion to 1/P from that one count; its note says so, and what to
// do when the loop is entered more often with more ranks. Two runs get
// the general note.
func TestTripsNoteSaysOneRun(t *testing.T) {
	n := &nodeContention{runPPN: []int{1, 2}, trips: map[string][]float64{"merge": {0, 4e5}, "scan": {8e5, 4e5}}}
	one := n.tripsNote("merge")
	if !strings.Contains(one, "only one entered it (4e+05 at 2 ranks)") || !strings.Contains(one, "--profile-ppn 1,2,4") {
		t.Errorf("one run: %q", one)
	}
	if v, _, ok := n.tripMeans("merge", 8); !ok || v != 1e5 {
		t.Errorf("P = 8: %g, %v; want 1e5 (1/P from 4e5 at 2)", v, ok)
	}
	if two := n.tripsNote("scan"); strings.Contains(two, "only one") || !strings.Contains(two, "8e+05 at 1, 4e+05 at 2 ranks") {
		t.Errorf("two runs: %q", two)
	}
}

// TestSerialPartsAloneOnTheirNode: serialtail's rank 0 repeats the whole
// work alone after the others have finished (its tail), or with -head
// does it first while the others wait in a barrier. With 12 ranks on one
// ib-qdr node (compute_slowdown 1.6 at 12) the parallel part slows down
// against 12 nodes of one rank; the serial part does not (it cost 1.6
// times as much, docs/validation/outside-2026-11-28n fault 3 and
// outside-2026-11-29 fault 4).
func TestSerialPartsAloneOnTheirNode(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	for _, tc := range []struct {
		part string
		args []string
		// serial and parallel split a run into rank 0's serial part and
		// the others' parallel one.
		split func(run *interpreter.Run) (serial, parallel float64)
	}{
		{"tail", []string{"-n", "262144", "-reps", "20"}, func(run *interpreter.Run) (float64, float64) {
			// The others finish with the Allreduce.
			return run.Ranks[0].Finish - run.Ranks[1].Finish, run.Ranks[1].Finish
		}},
		{"head", []string{"-n", "262144", "-reps", "20", "-head", "-tail=false"}, func(run *interpreter.Run) (float64, float64) {
			return run.Ranks[0].Compute - run.Ranks[1].Compute, run.Ranks[1].Compute
		}},
	} {
		mp, oracle, m := prepareOnIBQDR(t, SpeedupOptions{Dir: "..", Package: "./prediction/testdata/serialtail", Args: tc.args, NP: []int{1},
			ProfileOut: filepath.Join(t.TempDir(), "serial"+tc.part+".profile.json")})
		at := func(nodes, per int) (float64, float64) {
			run, _, err := simulate(mp, oracle, m, 12, nodes, per, commmodel.Block, tc.args, interpreter.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return tc.split(run)
		}
		serialSpread, spread := at(12, 1)
		serialPacked, packed := at(1, 12)
		if r := packed / spread; r < 1.3 {
			t.Errorf("%s: parallel part %.4g s at 1x12, %.4g s at 12x1: %.2f times, want the node's slowdown (1.6)", tc.part, packed, spread, r)
		}
		if r := serialPacked / serialSpread; r < 0.97 || r > 1.03 {
			t.Errorf("rank 0's %s %.4g s at 1x12, %.4g s at 12x1: %.3f times, want the same", tc.part, serialPacked, serialSpread, r)
		}
	}
}

// rankSpread maps the ranks' counts of the run with the most ranks that
// has them onto p ranks in rank order, or takes the run at p itself.
func TestRankSpread(t *testing.T) {
	n := &nodeContention{runPPN: []int{1, 2, 4}, rankTrips: map[string][][]float64{
		"gathered": {{}, {10, 10}, {1, 3, 3, 1}},
		"master":   {{}, {0, 20}, {0, 10, 10, 10}}, // rank 0 never enters it
		"even":     {{}, {10, 30}, {}},
	}}
	for _, tc := range []struct {
		id    string
		p     int
		want  []float64
		wantK int
	}{
		{"gathered", 4, []float64{0.125, 0.375, 0.375, 0.125}, 4},
		{"gathered", 2, []float64{0.5, 0.5}, 2},
		{"gathered", 1, []float64{1}, 4},
		{"gathered", 8, []float64{1. / 16, 1. / 16, 3. / 16, 3. / 16, 3. / 16, 3. / 16, 1. / 16, 1. / 16}, 4},
		{"gathered", 3, []float64{(1 + 3./3) / 8, (2 * 3. * 2 / 3) / 8, (3./3 + 1) / 8}, 4},
		{"even", 4, []float64{0.125, 0.125, 0.375, 0.375}, 2},
	} {
		got, k, ok := n.rankSpread(tc.id, tc.p)
		if !ok || k != tc.wantK || len(got) != len(tc.want) {
			t.Errorf("%s at %d: %v from %d ranks (ok %v), want %v from %d", tc.id, tc.p, got, k, ok, tc.want, tc.wantK)
			continue
		}
		for r := range got {
			if math.Abs(got[r]-tc.want[r]) > 1e-12 {
				t.Errorf("%s at %d: %v, want %v", tc.id, tc.p, got, tc.want)
				break
			}
		}
	}
	for _, id := range []string{"master", "none"} {
		if got, _, ok := n.rankSpread(id, 4); ok {
			t.Errorf("%s: spread %v, want none (a rank that never entered, or no rows)", id, got)
		}
	}
}

// TestGatheredCountsFollowTheRanks: gathered's middle ranks keep most
// items; the contention runs at 4 ranks saw each rank's count of the
// loop over them, and the prediction charges each rank its own (it
// charged every rank the ranks' mean:
// docs/validation/outside-2026-11-28n, fault 2), at 8 ranks too, their
// counts mapped onto 8 in rank order.
func TestGatheredCountsFollowTheRanks(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "200000", "-reps", "400"}
	mp, oracle, m := prepareOnIBQDR(t, SpeedupOptions{Dir: "..", Package: "./prediction/testdata/gathered", Args: args, NP: []int{1},
		ProfilePPN: []int{1, 2, 4}, ProfileOut: filepath.Join(t.TempDir(), "gathered.profile.json")})
	rows := oracle.prof.Contention.RankTrips["main.(*slab).work:loop@main.go:+2:2"]
	if len(rows) != 3 || len(rows[0]) != 0 || len(rows[1]) != 2 || len(rows[2]) != 4 || !(rows[2][1] > 10*rows[2][0]) {
		t.Fatalf("the loop's counts per rank in the contention runs: %v, want none at 1 rank, 2 at 2, 4 at 4 with the middle ones largest", rows)
	}
	for _, p := range []int{2, 4, 8} {
		run, sp, err := simulate(mp, oracle, m, p, p, 1, commmodel.Block, args, interpreter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		outer, middle := run.Ranks[0].Compute, run.Ranks[p/2].Compute
		switch r := middle / outer; {
		case p == 2 && math.Abs(r-1) > 0.05:
			t.Errorf("P = 2: rank 1 computes %.4g s, rank 0 %.4g s, want the same", middle, outer)
		case p > 2 && r < 5:
			t.Errorf("P = %d: middle rank %d computes %.4g s, rank 0 %.4g s: %.2f times, want the items it holds (over 5 times)", p, p/2, middle, outer, r)
		}
		said := false
		for _, a := range sp.Assumptions() {
			said = said || strings.Contains(a.What, "taken rank by rank") && strings.Contains(a.What, "spread over the ranks as in the profile's run at 4 ranks")
		}
		if p > 2 && !said {
			t.Errorf("P = %d: no assumption says the counts follow the ranks' spread:\n%v", p, sp.Assumptions())
		}
	}
}

// TestInnerCountsFollowTheRanks: rowdensity's rows are longer in the
// middle; the row loop's count is known, the inner loop exits on data
// (its count is loaded), so its time is in the row's profiled mean. The
// contention runs at 4 ranks saw the inner loop's iterations per entry
// spread over the ranks, and the middle ranks are charged their longer
// rows (every rank was charged the mean:
// docs/validation/outside-2026-11-29, fault 1).
func TestInnerCountsFollowTheRanks(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "40000", "-steps", "10"}
	mp, oracle, m := prepareOnIBQDR(t, SpeedupOptions{Dir: "..", Package: "./prediction/testdata/rowdensity", Args: args, NP: []int{1},
		ProfilePPN: []int{1, 2, 4}, ProfileOut: filepath.Join(t.TempDir(), "rowdensity.profile.json")})
	for _, p := range []int{2, 4} {
		run, _, err := simulate(mp, oracle, m, p, p, 1, commmodel.Block, args, interpreter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		outer, middle := run.Ranks[0].Compute, run.Ranks[p/2].Compute
		switch r := middle / outer; {
		case p == 2 && math.Abs(r-1) > 0.05:
			t.Errorf("P = 2: rank 1 computes %.4g s, rank 0 %.4g s, want the same", middle, outer)
		case p == 4 && r < 3:
			t.Errorf("P = 4: rank 2 computes %.4g s, rank 0 %.4g s: %.2f times, want its longer rows (over 3 times)", middle, outer, r)
		}
	}
	said := false
	for _, n := range oracle.Notes() {
		said = said || strings.Contains(n, "which exits on data, are the profile's mean per entry times each rank's share")
	}
	if !said {
		t.Errorf("no note on the inner loop's spread:\n%s", strings.Join(oracle.Notes(), "\n"))
	}
}
