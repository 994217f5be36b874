package prediction

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/model"
	"github.com/parpredict/parpredict/profiler"
	"golang.org/x/tools/go/ssa"
)

// cg's kernels (dot, axpy, ...) are cheap per call. Where the profile has
// their time at their call statements only, it is charged per iteration
// of their loops (a kernel rate); where their loops are timed (since
// 2026-11-26: checkSolution, called in an if statement, is timed in place,
// so serialCG and its calls of dot keep their timers), per iteration too.
// Charged per call, a rank would spend as long in them at P = 2 as alone;
// charged per iteration of their loops, half as long.
func TestKernelCostsFollowTheData(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	opts := SpeedupOptions{Dir: "..", Package: "./examples/cg", Args: []string{"-n", "64", "-check=false"},
		NP: []int{1}, ProfileOut: filepath.Join(t.TempDir(), "cg.profile.json")}
	mp, oracle, err := prepare(context.Background(), opts, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	var kernels []string
	for f := range oracle.kernelRate {
		kernels = append(kernels, f.Name())
	}
	if r, _ := oracle.prof.Region("main.dot:loop@kernels.go:+2:2"); !r.Timed && !strings.Contains(strings.Join(kernels, " "), "dot") {
		t.Errorf("kernels costed per iteration: %v, and dot's loop untimed: want one or the other", kernels)
	}
	m, err := commmodel.Load("ib-qdr")
	if err != nil {
		t.Fatal(err)
	}
	compute := map[int]float64{}
	for _, p := range []int{1, 2} {
		run, _, err := simulate(mp, oracle, m, p, p, 1, commmodel.Block, opts.Args, interpreter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		compute[p] = run.Ranks[0].Compute
	}
	// Per call the ratio would be 1; the serial set-up keeps it above 0.5.
	if r := compute[2] / compute[1]; r < 0.4 || r > 0.75 {
		t.Errorf("rank 0 computes %.3g s at P = 1 and %.3g s at P = 2 (ratio %.2f), want about half", compute[1], compute[2], r)
	}
}

// selfCheck notes a simulation of the profiled configuration whose
// compute does not give back the measured compute, by a quarter and a
// millisecond.
func TestSelfCheck(t *testing.T) {
	o := &Oracle{prof: &profiler.Profile{Meta: profiler.Meta{NP: 1},
		Totals: profiler.Totals{PlainBodyNs: 2.1e9, MPINs: 0.1e9, AccountedNs: 2e9}}}
	for _, tc := range []struct {
		compute float64
		noted   bool
	}{
		{1.9, false},
		{2.4, false},
		{1, true},
		{2.6, true},
	} {
		if got := o.selfCheck(tc.compute) != ""; got != tc.noted {
			t.Errorf("compute %g s against 2 s: noted %v, want %v", tc.compute, got, tc.noted)
		}
	}
	small := &Oracle{prof: &profiler.Profile{Meta: profiler.Meta{NP: 1}, Totals: profiler.Totals{PlainBodyNs: 2e5, AccountedNs: 2e5}}}
	if note := small.selfCheck(1e-3); note != "" { // 1 ms against 0.2: within the floor
		t.Errorf("a program of 0.2 ms: %s", note)
	}
	o.otherArgs = true // predicted at other arguments than the profile's
	if note := o.selfCheck(1); note != "" {
		t.Errorf("other arguments: %s", note)
	}
}

// A generic kernel of another package of the program runs as its
// instance (kern.Sum[float64]), whose regions the profile has under the
// generic's IDs (Oracle.profID): the simulation of the profiled run gives
// back the measured time. Before, the instance's loops cost nothing: 31 %
// of it, and the self-check noted it.
func TestGenericInstanceCosts(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	path := filepath.Join(t.TempDir(), "p.json")
	pred, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./prediction/testdata/genkernel",
		NP: []int{1, 4}, Machine: "ib-qdr", ProfileOut: path})
	if err != nil {
		t.Fatal(err)
	}
	prof, err := profiler.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	plain := prof.Totals.PlainBodyNs * 1e-9
	if got := pred.Report.Rows[0].Time; plain <= 0 || got < 0.8*plain || got > 1.25*plain {
		t.Errorf("T(1) = %.4g s, the plain binary's body %.4g s", got, plain)
	}
	if notes := strings.Join(pred.Notes, "\n"); strings.Contains(notes, "the simulation of the profiled run itself") {
		t.Errorf("notes: %s", notes)
	}
}

// TestDataDependentKernelScales predicts qsortkernel, whose quicksort is
// too fine to time inside (its time is its call statement's) and whose
// partition loops stop on data the interpreter does not know: the call's
// time must follow the iterations the interpreter runs, about halving
// with the rank's share at 2 ranks (n/2 log n/2 over n log n: 0.47).
// Charged per call, it did not change at all; and the guessed exits ran
// an index past the end, which was taken for the program's panic.
func TestDataDependentKernelScales(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "40000"}
	mp, oracle, m := prepareTestdata(t, "qsortkernel", args)
	t1, _ := intervalOn(t, mp, oracle, m, 1, args)
	t2, _ := intervalOn(t, mp, oracle, m, 2, args)
	if r := t2 / t1; r < 0.35 || r > 0.65 {
		t.Errorf("the sort took %.3g s at P = 1 and %.3g s at P = 2 (ratio %.2f), want about 0.47", t1, t2, r)
	}
	if pr, ok := oracle.region("main.main$1:call@main.go:+9:8"); !ok || !pr.Timed {
		t.Errorf("the call of qsort is not a timed site in the profile: %+v", pr)
	}
}

// TestUnknownTripCountsOfKernels: kernels whose loops the profile could
// not time, their trip counts random (math/rand, which the interpreter
// does not evaluate), cost their profiled time per entry. Their reduced
// nests had no time per entry (their root untimed) and were run step by
// step instead, with no cost on their iterations: the prediction was 1 %
// of the run.
func TestUnknownTripCountsOfKernels(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	mp, oracle, m := prepareTestdata(t, "randomkernel", nil)
	var loop *profiler.Region
	for i := range oracle.prof.Regions {
		if r := &oracle.prof.Regions[i]; r.Kind == profiler.Loop && r.Func == "main.main$1" {
			loop = r
		}
	}
	if loop == nil || !loop.Timed {
		t.Fatalf("the items' loop is not a timed region of the profile: %+v", loop)
	}
	measured := loop.TotalNs * 1e-9
	t1, _ := intervalOn(t, mp, oracle, m, 1, nil)
	t2, _ := intervalOn(t, mp, oracle, m, 2, nil)
	if r := t1 / measured; r < 0.8 || r > 1.25 {
		t.Errorf("P = 1 is predicted at %.3g s, the profiled loop took %.3g s (ratio %.2f)", t1, measured, r)
	}
	if r := t2 / t1; r < 0.4 || r > 0.6 {
		t.Errorf("the items took %.3g s at P = 1 and %.3g s at P = 2 (ratio %.2f), want about 0.5", t1, t2, r)
	}
}

// TestBroadcastFromFileFollowsProfile: rank 0 reads the size from a file,
// which the interpreter cannot, and broadcasts it. The profile keeps what
// that Bcast carried, so the ranks' loops get their share of the size:
// P = 2 takes about half P = 1's time (without it every rank's loop cost
// the profiled run's whole loop), and the assumption names the values.
func TestBroadcastFromFileFollowsProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	params, err := filepath.Abs("testdata/bcastparams/params.txt")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-params", params}
	mp, oracle, m := prepareTestdata(t, "bcastparams", args)
	var times []float64
	for _, p := range []int{1, 2} {
		iv, sp := intervalOn(t, mp, oracle, m, p, args)
		times = append(times, iv)
		var what []string
		for _, as := range sp.Assumptions() {
			what = append(what, as.What)
		}
		if !strings.Contains(strings.Join(what, "\n"), "taken as what every call here broadcast in the profiled run, [400000]") {
			t.Errorf("P = %d: no assumption names the profiled values: %q", p, what)
		}
	}
	if r := times[1] / times[0]; r < 0.4 || r > 0.6 {
		t.Errorf("the loop took %.3g s at P = 1 and %.3g s at P = 2 (ratio %.2f), want about 0.5", times[0], times[1], r)
	}
}

// TestLongComputeBeforeBurstShares: ranks that compute for long before
// their first operation, then reduce 20 times with nothing between, on
// a node of 2 cores (machine local): 4 ranks take about as long as 2 (half
// the work each, half a core each). The machine's lockstep table, read at
// the burst's grain (next to nothing between operations), gave the whole
// run a fraction of a core per rank, first part included: 3 times as
// long.
func TestLongComputeBeforeBurstShares(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	mp, oracle, _ := prepareTestdata(t, "sortfirst", nil)
	m, err := commmodel.Load("local")
	if err != nil {
		t.Fatal(err)
	}
	t2, _ := intervalOn(t, mp, oracle, m, 2, nil)
	t4, _ := intervalOn(t, mp, oracle, m, 4, nil)
	if r := t4 / t2; r < 0.8 || r > 1.3 {
		t.Errorf("P = 4 on 2 cores took %.3g s, P = 2 %.3g s (ratio %.2f), want about 1", t4, t2, r)
	}
}

// intervalOn simulates P ranks on one node of m and returns interval 1's
// time and the ranks' programs (for their assumptions).
func intervalOn(t *testing.T, mp *model.Program, oracle *Oracle, m *commmodel.Machine, p int, args []string) (float64, *interpreter.SSAPrograms) {
	t.Helper()
	run, sp, err := simulate(mp, oracle, m, p, 1, p, commmodel.Block, args, interpreter.Options{})
	if err != nil {
		t.Fatalf("P = %d: %v", p, err)
	}
	iv, ok := run.Interval(1)
	if !ok {
		t.Fatalf("P = %d: no interval 1", p)
	}
	return iv, sp
}

// TestSlowSimulationIsTold: a rank that runs long makes the prediction
// say so once, naming where it is and why its loops are not reduced.
func TestSlowSimulationIsTold(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	_, oracle, _ := prepareTestdata(t, "qsortkernel", []string{"-n", "4000"})
	var said []string
	oracle.logf = func(format string, args ...any) { said = append(said, fmt.Sprintf(format, args...)) }
	var qsort *ssa.Function
	for fn := range oracle.user {
		if fn.Name() == "qsort" {
			qsort = fn
		}
	}
	if qsort == nil {
		t.Fatal("no qsort in the model")
	}
	tell := oracle.slowSimulation(4, 0)
	tell(1, 100_000_001, qsort)
	tell(2, 100_000_001, qsort)
	if len(said) != 1 {
		t.Fatalf("said %d times, want once: %q", len(said), said)
	}
	for _, want := range []string{"P = 4: rank 1 has run 1e+08 SSA instructions step by step, now in main.qsort (main.go:", "is not reduced (", "gives up at 2e+09 per rank (--max-steps)"} {
		if !strings.Contains(said[0], want) {
			t.Errorf("%q does not say %q", said[0], want)
		}
	}
}

// TestCountFromFileInferred: every rank reads the input file, which the
// interpreter cannot, and takes every P-th line: the lines' count is
// taken as the one that gives the profiled run's trip count, so P = 2
// takes about half P = 1's time (without it each rank's loop cost the
// profiled run's whole loop), and the assumption says so.
func TestCountFromFileInferred(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	var text strings.Builder
	for i := range 20000 {
		for k := range 8 {
			fmt.Fprintf(&text, "%d ", (i*7+k*13)%1000)
		}
		text.WriteString("\n")
	}
	data := filepath.Join(t.TempDir(), "data.txt")
	if err := os.WriteFile(data, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-data", data}
	mp, oracle, m := prepareTestdata(t, "readall", args)
	t1, sp := intervalOn(t, mp, oracle, m, 1, args)
	t2, _ := intervalOn(t, mp, oracle, m, 2, args)
	if r := t2 / t1; r < 0.4 || r > 0.6 {
		t.Errorf("the lines took %.3g s at P = 1 and %.3g s at P = 2 (ratio %.2f), want about 0.5", t1, t2, r)
	}
	var what []string
	for _, as := range sp.Assumptions() {
		what = append(what, as.What)
	}
	if !strings.Contains(strings.Join(what, "\n"), "its count needs len(lines), which the rank does not know; taken as 20000, which gives the profiled run's 20000 iterations per entry at rank 0 of 1") {
		t.Errorf("no assumption names the inferred count: %q", what)
	}
}

// TestInnerCountsAtProfiledMean: a sparse matrix's rows are built by a
// loop that stores a call's result into one field (m.col = edges(...,
// m.col)), which leaves the rank's bounds known; the product's inner
// loop over a row's entries needs the row pointers, which the nest loads
// and the rank does not know. The inner count is taken at the profile's
// mean per entry, so P = 2 takes about half P = 1's time. Before, the
// build forgot all of m, and every rank was charged all the rows; with m
// known the product ran step by step, and at 200,000 rows gave up.
func TestInnerCountsAtProfiledMean(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	mp, oracle, m := prepareTestdata(t, "fieldcall", nil)
	t1, sp := intervalOn(t, mp, oracle, m, 1, nil)
	t2, _ := intervalOn(t, mp, oracle, m, 2, nil)
	if r := t2 / t1; r < 0.4 || r > 0.6 {
		t.Errorf("the products took %.3g s at P = 1 and %.3g s at P = 2 (ratio %.2f), want about 0.5", t1, t2, r)
	}
	var what []string
	for _, as := range sp.Assumptions() {
		what = append(what, as.What)
	}
	if all := strings.Join(what, "\n"); !strings.Contains(all, "an inner loop's count needs values the nest loads; taken at the profile's mean trips per entry, 340000 iterations in all") {
		t.Errorf("no assumption names the inner counts: %q", what)
	}
	if steps := sp.Steps(); steps > 1e6 {
		t.Errorf("P = 1 ran %d SSA instructions: the product ran step by step", steps)
	}
}

// TestMethodBoundsReduce: loops whose bound is a method called in the
// loop's header every iteration (a value receiver's d.local(), a pointer
// receiver's b.rows()) are reduced, their counts restated from the
// receivers' fields, rather than run row by row.
func TestMethodBoundsReduce(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "600"}
	mp, oracle, m := prepareTestdata(t, "methodbound", args)
	_, sp := intervalOn(t, mp, oracle, m, 1, args)
	if steps := sp.Steps(); steps > 1000 {
		t.Errorf("P = 1 ran %d SSA instructions: the rows ran one by one", steps)
	}
}

// TestRotatedLoopEntered: a loop over a count the ranks do not know
// (broadcast by rank 0), written for range reps, which go/ssa guards with
// 0 < reps outside the loop, is entered at every call and costed with
// the profiled mean count (scaled where no whole count is the mean): the
// simulation of the profiled run computes for about what the program did. The guard, which the profile counts no
// outcomes of, was taken half the time, and every other block cost
// nothing (58 % of the program's compute).
func TestRotatedLoopEntered(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	mp, oracle, m := prepareTestdata(t, "bcastreps", nil)
	run, sp, err := simulate(mp, oracle, m, 1, 1, 1, commmodel.Block, nil, interpreter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	scaled := false
	for _, as := range sp.Assumptions() {
		if strings.Contains(as.What, "frequency 0.5") {
			t.Errorf("%s: %s", as.Pos, as.What)
		}
		// 1 to 4 repetitions, 2.5 on average: no whole count is the
		// profiled mean, and the time is scaled by what it misses.
		scaled = scaled || strings.Contains(as.What, "where the profiled run made") && strings.Contains(as.What, "the time scaled by")
	}
	if !scaled {
		t.Errorf("no assumption scales the inferred count to the profiled mean: %v", sp.Assumptions())
	}
	tot := oracle.prof.Totals
	measured := (tot.PlainBodyNs - tot.MPINs) * 1e-9
	if r := maxCompute(run) / measured; r < 0.8 || r > 1.25 {
		t.Errorf("the simulation of the profiled run computes for %.3g s, the program computed for %.3g s (ratio %.2f)", maxCompute(run), measured, r)
	}
}

// TestRankTableLoopsRun: a loop over the ranks filling a Scatterv's
// counts and offsets is run, not skipped as a reduced nest (which left
// the counts unknown, each rank's block as long as the profiled run's
// whole input): P = 2 takes about half P = 1's time.
func TestRankTableLoopsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	mp, oracle, m := prepareTestdata(t, "scattercounts", nil)
	t1, _ := intervalOn(t, mp, oracle, m, 1, nil)
	t2, sp := intervalOn(t, mp, oracle, m, 2, nil)
	if r := t2 / t1; r < 0.35 || r > 0.65 {
		t.Errorf("the blocks took %.3g s at P = 1 and %.3g s at P = 2 (ratio %.2f), want about 0.5", t1, t2, r)
	}
	for _, as := range sp.Assumptions() {
		if strings.Contains(as.What, "len(mine)") {
			t.Errorf("the block's length is unknown: %s", as.What)
		}
	}
}

// prepareTestdata profiles prediction/testdata/name with args (P = 1)
// into a temporary file and returns its model, oracle and the ib-qdr
// machine.
func prepareTestdata(t *testing.T, name string, args []string) (*model.Program, *Oracle, *commmodel.Machine) {
	t.Helper()
	return prepareOnIBQDR(t, SpeedupOptions{Dir: "..", Package: "./prediction/testdata/" + name, Args: args, NP: []int{1},
		ProfileOut: filepath.Join(t.TempDir(), name+".profile.json")})
}

// TestOversubscribedRanksRefetchTheirGrids: 4 ranks on the 2 cores of
// machine local take turns, and each finds its grids gone from the core's
// caches when it gets a core back after its Allreduce: with the machine's
// refetch model, every sweep after one costs twice the grid it writes
// (the one it reads beside it) at the refetch bandwidth, stretched by the
// 2 ranks per core. With a core each (P = 2), or grids the cache could not
// hold for 2 ranks, nothing changes.
func TestOversubscribedRanksRefetchTheirGrids(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	const rows, cols, steps = 256, 256, 100
	args := []string{"-rows", "256", "-cols", "256", "-steps", "100"}
	mp, oracle, _ := prepareTestdata(t, "gridsteps", args)
	m, err := commmodel.Load("local")
	if err != nil {
		t.Fatal(err)
	}
	const bandwidth = 1e10
	at := func(p int, rf *commmodel.Refetch) float64 {
		mc := *m
		mc.Refetch = rf
		iv, _ := intervalOn(t, mp, oracle, &mc, p, args)
		return iv
	}
	for _, p := range []int{2, 4} {
		plain := at(p, nil)
		cached := at(p, &commmodel.Refetch{Bandwidth: bandwidth, Cache: 1 << 30})
		tooBig := at(p, &commmodel.Refetch{Bandwidth: bandwidth, Cache: 1 << 10})
		if tooBig != plain {
			t.Errorf("P = %d: %.6g s with a 1 KiB cache, %.6g s without a refetch model: want the same", p, tooBig, plain)
		}
		if p == 2 {
			if cached != plain {
				t.Errorf("P = 2 on 2 cores: %.6g s with the refetch model, %.6g s without: want the same", cached, plain)
			}
			continue
		}
		grid := float64((rows/p + 2) * cols * 8)
		// The first sweep follows no MPI operation.
		want := float64(steps-1) * 2 * (2 * grid / bandwidth)
		t.Logf("P = %d: %.4g s without, %.4g s with the refetches (%.4g s expected)", p, plain, cached, want)
		if got := cached - plain; got < 0.8*want || got > 1.6*want {
			t.Errorf("P = 4 on 2 cores: the refetches added %.4g s (%.4g with, %.4g without), want about %.4g", got, cached, plain, want)
		}
	}
}

// TestKernelThroughWrapperCounted: sweepswap's step loop calls a method
// without loops that calls the sweep: the reduced step loop counts the
// sweep's loops through the wrapper, with the rows read through its
// receiver. Their time was left out: the interval was predicted at about
// 1 % of the sweep's profiled time, and the speedup followed the rest.
func TestKernelThroughWrapperCounted(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "200000", "-steps", "100"}
	mp, oracle, m := prepareTestdata(t, "sweepswap", args)
	sweep := 0.0
	for _, r := range oracle.prof.Regions {
		if r.Func == "main.(*grid).sweep" && r.Kind == profiler.Loop && r.Timed && r.Parent != "" && !strings.Contains(r.Parent, "loop@") {
			sweep += r.TotalNs * 1e-9
		}
	}
	if sweep <= 0 {
		t.Fatal("the profile has no timed sweep loop")
	}
	t1, _ := intervalOn(t, mp, oracle, m, 1, args)
	t2, _ := intervalOn(t, mp, oracle, m, 2, args)
	t.Logf("sweep's loops %.4g s in the profile; interval %.4g s at P = 1, %.4g s at P = 2", sweep, t1, t2)
	if t1 < 0.8*sweep || t1 > 1.5*sweep {
		t.Errorf("P = 1: interval %.4g s, want about the sweep's profiled %.4g s", t1, sweep)
	}
	if r := t2 / t1; r < 0.4 || r > 0.65 {
		t.Errorf("P = 2 took %.3g of P = 1's time, want about half", r)
	}
}

// TestBucketCountsFollowTheRanks: bucketappend's nest appends to the
// buckets in s.out, slices of the type of s.data, whose length bounds the
// nest: the count is read at entry (the rank's share) at every P, and the
// dealing halves from P = 1 to 2. The loop analysis took the appends for
// possible stores to s.data, and the count was the profile's at every P
// ("its count needs len(complit.data), which the rank does not know").
func TestBucketCountsFollowTheRanks(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	wantHalfAtTwo(t, "bucketappend", nil, "does not know")
}

// wantHalfAtTwo profiles testdata program name with args and checks that
// its interval at P = 2 takes about half its time at P = 1 on ib-qdr,
// with no assumption at P = 1 that says any of unwanted.
func wantHalfAtTwo(t *testing.T, name string, args []string, unwanted ...string) {
	t.Helper()
	mp, oracle, m := prepareTestdata(t, name, args)
	t1, sp := intervalOn(t, mp, oracle, m, 1, args)
	t2, _ := intervalOn(t, mp, oracle, m, 2, args)
	for _, as := range sp.Assumptions() {
		for _, u := range unwanted {
			if strings.Contains(as.What, u) {
				t.Errorf("%s: %s", as.Pos, as.What)
			}
		}
	}
	if r := t2 / t1; r < 0.4 || r > 0.65 {
		t.Errorf("P = 2 took %.3g s, P = 1 %.3g s (ratio %.2f), want about half", t2, t1, r)
	}
}

// TestRangeOverCutRowReduced: rangerow's inner loop ranges over the row
// the outer loop cuts from a flat array: its count is the cut's bounds'
// difference, so the sweep is a reduced nest counted exactly, which
// halves at P = 2. The count was data (the row is computed in the outer
// loop), taken at the profile's mean trips per entry; with the outer
// count guessed too the sweep ran step by step (1.1e8 instructions for a
// 0.02 s program), or the count was the one-rank profile's at every P
// (kmeans predicted not to scale).
func TestRangeOverCutRowReduced(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	wantHalfAtTwo(t, "rangerow", []string{"-n", "50000", "-reps", "4"}, "executed instead", "count needs", "does not know")
}

// TestWaitallOfLostListWaitsForPending: waitallfield keeps its requests
// in a struct field reset by r.reqs = r.reqs[:0], which the interpreter
// loses track of; its Waitall then waits for every request of the rank
// still pending, with an assumption, and predicts what the same exchange
// with a fresh local list does. It stopped the whole prediction ("the
// request list is not known to the interpreter").
func TestWaitallOfLostListWaitsForPending(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	at := func(style string, p int) (float64, []interpreter.Assumption) {
		args := []string{"-style", style}
		mp, oracle, m := prepareTestdata(t, "waitallfield", args)
		iv, sp := intervalOn(t, mp, oracle, m, p, args)
		return iv, sp.Assumptions()
	}
	for _, p := range []int{2, 4} {
		field, said := at("field", p)
		local, _ := at("local", p)
		if r := field / local; r < 0.8 || r > 1.25 {
			t.Errorf("P = %d: %.4g s with the list in a field, %.4g s with a local list, want about the same", p, field, local)
		}
		found := false
		for _, as := range said {
			found = found || strings.Contains(as.What, "taken as every request of this rank still pending")
		}
		if !found {
			t.Errorf("P = %d: no assumption says the lost list is every pending request: %v", p, said)
		}
	}
}

// TestElseArmFromContentionRuns: checkabort's check compares a key from
// the previous rank, a branch the one-rank profile never reaches; its
// contention run at 2 ranks keeps the else arm alone (the check never
// failed), so the then arm is never taken and no rank aborts. The branch
// was taken half the time, and the check's Allreduce turned one rank's
// guess into rank 0's Abort at every P > 1.
func TestElseArmFromContentionRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "20000"}
	mp, oracle, m := prepareOnIBQDR(t, SpeedupOptions{Dir: "..", Package: "./prediction/testdata/checkabort", Args: args, NP: []int{1},
		ProfilePPN: []int{1, 2}, ProfileOut: filepath.Join(t.TempDir(), "checkabort.profile.json")})
	for _, p := range []int{2, 4} {
		if _, _, err := simulate(mp, oracle, m, p, 1, p, commmodel.Block, args, interpreter.Options{}); err != nil {
			t.Errorf("P = %d: %v", p, err)
		}
	}
}

// TestGeometricLoopsFollowTheSize: butterfly's radix-2 loops (half *= 2,
// start += 2*half) are counted, so a prediction at 16 times the profile's
// row length charges n/2 log2 n butterflies a row (26.7 times as many),
// not the profile's count: the counts were data, taken per iteration of
// the row loop from the profile, so the butterflies' time did not grow
// at all (fft2d profiled at a quarter of its size: -57 %), and nothing
// said so. The loop whose count is still data (spread's, read from
// lens) gets a note when the arguments differ from the profile's, and
// none when they are the same.
func TestGeometricLoopsFollowTheSize(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	out := filepath.Join(t.TempDir(), "butterfly.profile.json")
	small := []string{"-n", "64", "-rows", "32", "-reps", "20"}
	at := func(args []string) (float64, string) {
		mp, oracle, m := prepareOnIBQDR(t, SpeedupOptions{Dir: "..", Package: "./prediction/testdata/butterfly",
			Args: args, ProfileArgs: small, NP: []int{1}, ProfileOut: out})
		iv, _ := intervalOn(t, mp, oracle, m, 1, args)
		return iv, strings.Join(oracle.Notes(), "\n")
	}
	const uncounted = "main.spread:loop@main.go:+2:3, inside the reduced nest"
	t64, notes64 := at(small)
	if strings.Contains(notes64, uncounted) {
		t.Errorf("the profile's own arguments: a note on the uncounted loop:\n%s", notes64)
	}
	t1024, notes1024 := at([]string{"-n", "1024", "-rows", "32", "-reps", "20"})
	if r := t1024 / t64; r < 24 || r > 28 {
		t.Errorf("the butterflies at -n 1024 predicted %.4g s, at -n 64 %.4g s: %.1f times, want 26.7", t1024, t64, r)
	}
	if !strings.Contains(notes1024, uncounted) || !strings.Contains(notes1024, "(-n 64 -rows 32 -reps 20)") {
		t.Errorf("-n 1024: no note on spread's uncounted loop with the profile's arguments:\n%s", notes1024)
	}
}

// TestGuessedPartOfACheckRetreats: panicguard's check
// len(s.rght) > 0 && to >= size has an unknown first part, which the
// profiled frequency decides, and a known second part, true on the last
// rank: the guess led to the panic, which the profiled run never
// reached, so the rank takes the guessed branch the other way, with an
// assumption, and every P is predicted (each failed with "the program
// panics"); also where the known part is two tests, to < 0 || to >= size
// (-or). With the parts swapped the known test comes first and nothing
// is guessed toward the panic.
func TestGuessedPartOfACheckRetreats(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	for _, args := range [][]string{{"-early"}, {"-early", "-or"}, {"-swap"}} {
		mp, oracle, m := prepareOnIBQDR(t, SpeedupOptions{Dir: "..", Package: "./prediction/testdata/panicguard", Args: args, NP: []int{1},
			ProfileOut: filepath.Join(t.TempDir(), "panicguard.profile.json")})
		for _, p := range []int{2, 4} {
			_, sp, err := simulate(mp, oracle, m, p, 1, p, commmodel.Block, args, interpreter.Options{})
			if err != nil {
				t.Fatalf("%v, P = %d: %v", args, p, err)
			}
			retreated := false
			for _, a := range sp.Assumptions() {
				retreated = retreated || strings.Contains(a.What, "led to the panic at") && strings.Contains(a.What, "panicguard/main.go:")
			}
			if want := args[0] == "-early"; retreated != want {
				t.Errorf("%v, P = %d: retreated %v, want %v: %v", args, p, retreated, want, sp.Assumptions())
			}
		}
	}
}
