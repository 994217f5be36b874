package prediction

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/internal/testmod"
	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/profiler"
	"github.com/parpredict/parpredict/report"
	"golang.org/x/tools/go/ssa"
)

// TestSpeedupIsDeterministic profiles heat once, then predicts it twice,
// first with configurations simulated at once, then one after another:
// the JSON reports, notes, assumptions and timelines must be
// byte-identical.
func TestSpeedupIsDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	opts := SpeedupOptions{Dir: "..", Package: "./examples/heat", Args: []string{"-n", "96", "-steps", "20", "-check=false"},
		NP: []int{1, 2, 4, 8}, PPN: []int{4}, Machine: "ib-qdr", TimelineP: 8,
		ProfileOut: filepath.Join(t.TempDir(), "heat.profile.json")}
	// The first call makes the profile, the second reuses it.
	opts.Jobs = 4
	first, err := Speedup(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Jobs = 1
	second, err := Speedup(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := report.Write(&a, first.Report, report.JSON); err != nil {
		t.Fatal(err)
	}
	if err := report.Write(&b, second.Report, report.JSON); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("two predictions differ:\n%s\n%s", a.String(), b.String())
	}
	if fmt.Sprint(first.Notes, first.Assumptions, first.Skipped) != fmt.Sprint(second.Notes, second.Assumptions, second.Skipped) {
		t.Errorf("notes, assumptions or skipped configurations differ:\n%v %v %v\n%v %v %v",
			first.Notes, first.Assumptions, first.Skipped, second.Notes, second.Assumptions, second.Skipped)
	}
	if len(first.Report.Rows) != 4 {
		t.Fatalf("%d rows, want 4", len(first.Report.Rows))
	}
	if first.Sweep.Points[0].Serial == nil {
		t.Error("no serial time estimated at P = 1")
	}
	checkPerRank(t, first)
	var ta, tb bytes.Buffer
	if err := first.Timeline.WriteChromeTrace(&ta); err != nil {
		t.Fatal(err)
	}
	if err := second.Timeline.WriteChromeTrace(&tb); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ta.Bytes(), tb.Bytes()) {
		t.Error("two predicted timelines differ")
	}
}

// TestSpeedupProgress: a configuration shows on the progress display
// when its simulation starts, and again as its operations are simulated
// (a simulation of thousands of ranks takes minutes), before it counts as
// done.
func TestSpeedupProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	type call struct {
		done, total int
		what        string
	}
	var calls []call
	var logged strings.Builder
	opts := SpeedupOptions{Dir: "..", Package: "./examples/heat", Args: []string{"-n", "130", "-steps", "600", "-check=false"},
		NP: []int{64}, PPN: []int{8}, Machine: "ib-qdr", ProfileOut: filepath.Join(t.TempDir(), "heat.profile.json"),
		Progress: func(done, total int, what string) { calls = append(calls, call{done, total, what}) },
		Log:      func(format string, a ...any) { fmt.Fprintf(&logged, format+"\n", a...) }}
	pred, err := Speedup(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	// Profiled at the predicted arguments: the log says how not to.
	if !strings.Contains(logged.String(), "--profile-args gives a smaller size to profile at") {
		t.Errorf("the profile at the predicted size is not told how to profile smaller:\n%s", logged.String())
	}
	if len(calls) < 3 {
		t.Fatalf("progress calls %v, want the start, at least one during the simulation and the end", calls)
	}
	if c := calls[0]; c != (call{0, 1, "P=64 ppn=8"}) {
		t.Errorf("first progress call %v, want the configuration's start", c)
	}
	if c := calls[len(calls)-1]; c.done != 1 || c.total != 1 {
		t.Errorf("last progress call %v, want 1 of 1 done", c)
	}
	during := calls[1 : len(calls)-1]
	for _, c := range during {
		if c.done != 0 || !strings.HasPrefix(c.what, "P=64 ppn=8: ") || !strings.Contains(c.what, "million MPI operations") {
			t.Errorf("progress call during the simulation %v, want the configuration and its operations so far", c)
		}
	}
	if pred.Report == nil || len(pred.Sweep.Points) != 1 {
		t.Fatalf("prediction %+v, want one point", pred.Sweep)
	}
}

// checkPerRank checks the per-rank totals and timeline of the P = 8
// configuration against each other and the predicted time.
func checkPerRank(t *testing.T, pred *Prediction) {
	t.Helper()
	pr, tl := pred.Report.PerRank, pred.Timeline
	if pr == nil || tl == nil || pr.Config.P != 8 || len(pr.Ranks) != 8 || len(tl.Ranks) != 8 {
		t.Fatalf("per-rank totals %+v, timeline %v: want both for P = 8", pr, tl != nil)
	}
	if err := tl.Check(); err != nil {
		t.Fatal(err)
	}
	labelled := false
	for _, s := range tl.Ranks[0].Segments {
		if s.Kind == report.KindCompute && strings.HasPrefix(s.Site, "main.jacobiStep:loop@") {
			labelled = true
		}
	}
	if !labelled {
		t.Error("no compute segment of rank 0 is labelled with jacobiStep's loop, where heat computes")
	}
	latest := 0.0
	for r, tot := range pr.Ranks {
		var sums [3]float64
		for _, s := range tl.Ranks[r].Segments {
			sums[s.Kind] += s.Dur()
		}
		for i, want := range []float64{tot.Compute, tot.MPI, tot.Wait} {
			if math.Abs(sums[i]-want) > 1e-9*max(1, want) {
				t.Errorf("rank %d: %v segments sum to %g s, totals say %g s", r, report.Kind(i), sums[i], want)
			}
		}
		if busy := tot.Compute + tot.MPI + tot.Wait; math.Abs(busy-tot.Finish) > 1e-9 {
			t.Errorf("rank %d: compute + mpi + wait = %g s, finish %g s", r, busy, tot.Finish)
		}
		latest = max(latest, tot.Finish)
	}
	for _, row := range pred.Report.Rows {
		if row.P == 8 && row.Time != latest {
			t.Errorf("P = 8 predicted %g s, latest rank finishes at %g s", row.Time, latest)
		}
	}
}

func TestSpeedupReportsDeadlockPerRank(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/deadlock",
		NP: []int{1, 3}, PPN: []int{4}, Machine: "ib-qdr", ProfileOut: filepath.Join(t.TempDir(), "p.json")}
	// P = 1 runs, P = 3 deadlocks: the sweep gives P = 1 and the report of P = 3.
	pred, err := Speedup(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(pred.Report.Rows) != 1 || pred.Report.Rows[0].P != 1 || len(pred.Failed) != 1 || len(pred.Report.Failed) != 1 {
		t.Fatalf("rows %+v, failed %+v", pred.Report.Rows, pred.Failed)
	}
	checkDeadlock(t, pred.Failed[0].Err)
	if f := pred.Report.Failed[0]; f.P != 3 || !strings.HasPrefix(f.Error, "interpreter: deadlock") || !strings.Contains(f.Error, "rank 2 waits in Recv") {
		t.Errorf("report's failure %+v", f)
	}
	// Every configuration deadlocks: the sweep fails with the report.
	opts.NP = []int{3}
	_, err = Speedup(context.Background(), opts)
	checkDeadlock(t, err)
	if !strings.Contains(err.Error(), "P=3") {
		t.Errorf("the error does not name the configuration: %v", err)
	}
}

// checkDeadlock checks that err is the deadlock report of
// testdata/deadlock at three ranks: each blocked in its Recv.
func checkDeadlock(t *testing.T, err error) {
	t.Helper()
	var d *interpreter.DeadlockError
	if !errors.As(err, &d) {
		t.Fatalf("got %v, want a deadlock report", err)
	}
	if len(d.Blocked) != 3 {
		t.Fatalf("blocked ranks %+v", d.Blocked)
	}
	for r, b := range d.Blocked {
		if b.Rank != r || !strings.HasPrefix(b.Op, "Recv(source ") || !strings.HasPrefix(b.Site, "main.go:") {
			t.Errorf("rank %d: %+v", r, b)
		}
	}
}

// Ranks that synchronise every step get the cores the machine's lockstep
// table gives them: with one effective core for 2 ranks, heat's ranks
// compute twice as long between their first and last MPI operation at
// P = 2 as with the table absent (their set-up before it keeps its
// speed: enough steps that the loop holds most of the time).
func TestLockstepTableSlowsCoupledRanks(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	dir := t.TempDir()
	opts := SpeedupOptions{Dir: "..", Package: "./examples/heat", Args: []string{"-n", "96", "-steps", "200", "-check=false"},
		NP: []int{1, 2}, ProfileOut: filepath.Join(dir, "heat.profile.json")}
	times := map[bool]float64{}
	for _, lockstep := range []bool{false, true} {
		var rows []commmodel.LockstepRow
		if lockstep {
			rows = []commmodel.LockstepRow{{Ranks: 2, Compute: 1e-6, Cores: 1}, {Ranks: 2, Compute: 1, Cores: 1}}
		}
		r := predictWithLockstep(t, opts, rows, fmt.Sprintf("m%v.yaml", lockstep))
		times[lockstep] = r[1].Time / r[0].Time
	}
	// The ranks' compute doubles; their communication does not.
	if r := times[true] / times[false]; r < 1.4 || r > 2 {
		t.Errorf("T(2)/T(1) = %.3f without the lockstep table, %.3f with one core for 2 ranks: ratio %.2f, want 1.4 to 2", times[false], times[true], r)
	}
}

// predictWithLockstep predicts opts (P = 1 and 2) on this machine with
// the lockstep table rows, written to a machine file named name in the
// profile's directory. Detours at the synchronisations and first touches
// of receive buffers are left out: they would add the same time with any
// table, and change with each calibration of this machine.
func predictWithLockstep(t *testing.T, opts SpeedupOptions, rows []commmodel.LockstepRow, name string) []report.SpeedupRow {
	t.Helper()
	opts.Machine = writeLocalMachine(t, filepath.Join(filepath.Dir(opts.ProfileOut), name), "", func(m *commmodel.Machine) {
		m.Lockstep, m.Noise, m.PageFaults = rows, nil, nil
	})
	pred, err := Speedup(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	r := pred.Report.Rows
	if len(r) != 2 || r[1].P != 2 {
		t.Fatalf("rows %+v", r)
	}
	return r
}

// TestProgramInOtherModule predicts a program in a directory of its own
// with its own go.mod (requiring parpredict through a replace), named by
// its absolute path from this package's directory: the model, the profile
// and the validation's build must all resolve it against its module.
func TestProgramInOtherModule(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles and runs a program")
	}
	dir := testmod.Copy(t, "..", "testdata/earlyexit", "earlyexit")
	args := []string{"-steps", "20"}
	pred, err := Speedup(context.Background(), SpeedupOptions{Package: dir, Args: args, NP: []int{1, 2}, Machine: "ib-qdr",
		ProfileOut: filepath.Join(t.TempDir(), "earlyexit.profile.json")})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(pred.Sweep.Points); n != 2 {
		t.Errorf("%d predicted points, want 2", n)
	}
	v, err := Validate(context.Background(), ValidateOptions{Package: dir, Args: args, NP: []int{1}, Reps: 1,
		Profile: filepath.Join(t.TempDir(), "validate.profile.json")})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Runs[1]) != 1 {
		t.Errorf("real runs %v, want one at P = 1", v.Runs)
	}
}

// TestExitTestsFollowArgs profiles programs whose step loop can leave by
// a test of the step count (known) or by one on a reduced value
// (unknown), and predicts them at 1, 2 and 3 times the profile's steps:
// the profile's counts of each test's outcomes must let the known one end
// the loop, so that each further block of steps simulates the same number
// of MPI operations more. From the loop's exit rate alone every
// prediction would simulate the profile's steps. heat's tests are its
// loop condition's (step < maxSteps && change > tol); earlyexit's are its
// condition and an if with a break.
func TestExitTestsFollowArgs(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles programs")
	}
	for _, tc := range []struct {
		pkg   string
		args  func(steps int) []string
		steps int
	}{
		{"./examples/heat", func(s int) []string { return []string{"-n", "96", "-steps", fmt.Sprint(s), "-check=false"} }, 20},
		{"./prediction/testdata/earlyexit", func(s int) []string { return []string{"-steps", fmt.Sprint(s)} }, 30},
	} {
		t.Run(filepath.Base(tc.pkg), func(t *testing.T) {
			profArgs := tc.args(tc.steps)
			opts := SpeedupOptions{Dir: "..", Package: tc.pkg, NP: []int{2}, Args: profArgs,
				ProfileArgs: profArgs, ProfileOut: filepath.Join(t.TempDir(), "profile.json")}
			mp, oracle, m := prepareOnIBQDR(t, opts)
			var ops []int64
			for k := 1; k <= 3; k++ {
				args := tc.args(k * tc.steps)
				oracle.SetArgs(args)
				run, _, err := simulate(mp, oracle, m, 2, 1, 2, commmodel.Block, args, interpreter.Options{})
				if err != nil {
					t.Fatal(err)
				}
				ops = append(ops, run.Ops)
			}
			if d1, d2 := ops[1]-ops[0], ops[2]-ops[1]; d1 <= 0 || d1 != d2 {
				t.Errorf("MPI operations at 1, 2 and 3 times %d steps: %v; want equal positive differences", tc.steps, ops)
			}
			for _, n := range oracle.Notes() {
				if strings.Contains(n, "more than one exit test") {
					t.Errorf("unexpected note: %s", n)
				}
			}
		})
	}
}

func TestLockstepPattern(t *testing.T) {
	for _, tc := range []struct {
		ops, alltoall int64
		want          string
	}{
		{12, 10, commmodel.PatternAlltoall}, // transpose: ten Alltoallv, a Barrier and a Gatherv
		{4, 2, commmodel.PatternAlltoall},
		{5, 2, commmodel.PatternRing},
		{155548, 0, commmodel.PatternRing},
		{0, 0, commmodel.PatternRing},
	} {
		if got := lockstepPattern(&interpreter.Run{Ops: tc.ops, AllToAll: tc.alltoall}); got != tc.want {
			t.Errorf("%d ops, %d all-to-all: pattern %q, want %q", tc.ops, tc.alltoall, got, tc.want)
		}
	}
}

// A program that exchanges all-to-all takes the table's all-to-all rows:
// with one effective core for 2 ranks there and two in the ring rows,
// transpose's ranks compute about twice as long at P = 2 as with the ring
// rows alone.
func TestLockstepAlltoallRows(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	dir := t.TempDir()
	opts := SpeedupOptions{Dir: "..", Package: "./examples/transpose", Args: []string{"-n", "256", "-reps", "10", "-check=false"},
		NP: []int{1, 2}, ProfileOut: filepath.Join(dir, "transpose.profile.json")}
	times := map[bool]float64{}
	for _, alltoall := range []bool{false, true} {
		rows := []commmodel.LockstepRow{{Ranks: 2, Compute: 1e-6, Cores: 2}, {Ranks: 2, Compute: 1, Cores: 2}}
		if alltoall {
			rows = append(rows, commmodel.LockstepRow{Pattern: commmodel.PatternAlltoall, Ranks: 2, Compute: 1e-6, Cores: 1},
				commmodel.LockstepRow{Pattern: commmodel.PatternAlltoall, Ranks: 2, Compute: 1, Cores: 1})
		}
		times[alltoall] = predictWithLockstep(t, opts, rows, fmt.Sprintf("m%v.yaml", alltoall))[1].Time
	}
	t.Logf("T(2) = %.4g s with the ring rows alone, %.4g s with the all-to-all rows", times[false], times[true])
	if r := times[true] / times[false]; r < 1.4 || r > 2.1 {
		t.Errorf("T(2) = %.4g s with the ring rows alone, %.4g s with all-to-all rows of one core for 2 ranks: ratio %.2f, want 1.4 to 2.1", times[false], times[true], r)
	}
}

// A simulation that runs many instructions says where: stepwise's loop
// calls fmt.Sprint, so it is not reduced and the interpreter steps
// through every iteration; the notes name the function and why its loop
// is run that way.
func TestNotesSayWhereTheInterpreterSpentItsSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	defer func(v int64) { slowSteps = v }(slowSteps)
	slowSteps = 100_000
	args := []string{"-n", "20000"}
	profile := filepath.Join(t.TempDir(), "stepwise.profile.json")
	pred, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./prediction/testdata/stepwise", Args: args, NP: []int{1, 2},
		Machine: "ib-qdr", ProfileOut: profile})
	if err != nil {
		t.Fatal(err)
	}
	var note string
	for _, n := range pred.Notes {
		if strings.HasPrefix(n, "the interpreter ran") {
			note = n
		}
	}
	if !strings.Contains(note, "at P = ") || !strings.Contains(note, "in main.digits (main.go:14)") ||
		!strings.Contains(note, "loop main.digits:loop@main.go:+2:2 is not reduced (calls functions not known to be pure: fmt.Sprint") {
		t.Errorf("notes %q: want one naming main.digits and why its loop is not reduced", pred.Notes)
	}
	// Below the threshold nothing is said.
	slowSteps = 1 << 62
	pred, err = Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./prediction/testdata/stepwise", Args: args, NP: []int{1},
		Machine: "ib-qdr", Profile: profile})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range pred.Notes {
		if strings.HasPrefix(n, "the interpreter ran") {
			t.Errorf("a note below the threshold: %q", n)
		}
	}
}

// TestSpeedupMaxSteps: SpeedupOptions.MaxSteps reaches the ranks, whose
// simulation gives up past it, naming the limit and how to raise it.
func TestSpeedupMaxSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	_, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./prediction/testdata/deadlock",
		NP: []int{1}, Machine: "ib-qdr", MaxSteps: 10, ProfileOut: filepath.Join(t.TempDir(), "p.json")})
	if err == nil || !strings.Contains(err.Error(), "gave up after 10 instructions") || !strings.Contains(err.Error(), "--max-steps") {
		t.Fatalf("got %v, want the step limit's error", err)
	}
}

// TestLooseResultGivesUp predicts countlast -last: after the interval,
// rank 0 scans 30 million bits a reduced nest set, counting the clear
// ones and keeping the last one's index (last = i in one arm). The
// count alone gave up at once; with the index, a result an arm could
// make known again, the scan ran all its iterations step by step (580
// million instructions). It now gives up after interpreter.LooseAfter
// iterations of guesses, within a few million instructions.
func TestLooseResultGivesUp(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	pred, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./prediction/testdata/countlast",
		Args: []string{"-last"}, ProfileArgs: []string{"-last", "-n", "3000000"}, NP: []int{1}, Machine: "ib-qdr",
		MaxSteps: 20_000_000, ProfileOut: filepath.Join(t.TempDir(), "p.json")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(pred.Assumptions, func(a interpreter.Assumption) bool {
		return strings.Contains(a.What, "main.clearLast:loop@main.go:+1:2 runs step by step for what it computes, which became unknown")
	}) {
		t.Errorf("the scan did not give up: %v", pred.Assumptions)
	}
}

// TestSpeedupCountsOwnPackages: a kernel in a package of the program's own
// module is the program's code: its loop is costed from the profile, so
// ten times the terms predict about ten times the time. Loaded as a
// library (before), the call cost its site's own time whatever n was.
func TestSpeedupCountsOwnPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	dir := t.TempDir()
	predict := func(n string) float64 {
		pred, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./prediction/testdata/ownpkg",
			Args: []string{"-n", n}, ProfileArgs: []string{"-n", "200000"}, NP: []int{1}, Machine: "ib-qdr",
			ProfileOut: filepath.Join(dir, "p.json")})
		if err != nil {
			t.Fatal(err)
		}
		return pred.Report.Rows[0].Time
	}
	small, large := predict("2000000"), predict("20000000")
	if r := large / small; r < 8 || r > 12 {
		t.Errorf("n = 2e6: %g s, n = 2e7: %g s (ratio %.2f), want about 10", small, large, r)
	}
}

// TestLibraryCallsFollowTheirLengths: a library sort is costed by the
// length it is given, n log2 n (it cost its profiled time per call, the
// same at any size and any share: a note said so). Profiled at -n 20000,
// -n 2000000 takes about 146 times as long (the sort 100 x 20.9 / 14.3,
// filling 100), and each of 2 ranks sorting half takes about half.
func TestLibraryCallsFollowTheirLengths(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	out := filepath.Join(t.TempDir(), "p.json")
	predict := func(np []int, args ...string) *Prediction {
		pred, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./prediction/testdata/libsort",
			Args: args, ProfileArgs: []string{"-n", "20000"}, NP: np, Machine: "ib-qdr", ProfileOut: out})
		if err != nil {
			t.Fatal(err)
		}
		if notes := strings.Join(pred.Notes, "\n"); strings.Contains(notes, "library call sort.Float64s costs its profiled") {
			t.Errorf("args %v: the sort is noted as costed per call: %s", args, notes)
		}
		return pred
	}
	small := predict([]int{1, 2}, "-n", "20000")
	large := predict([]int{1}, "-n", "2000000")
	if r := large.Report.Rows[0].Time / small.Report.Rows[0].Time; r < 120 || r > 170 {
		t.Errorf("-n 2000000 is predicted %.1f times -n 20000's time, want about 146", r)
	}
	if r := small.Report.Rows[1].Time / small.Report.Rows[0].Time; r < 0.4 || r > 0.65 {
		t.Errorf("P = 2 is predicted %.2f times P = 1's time, want about 0.5", r)
	}
}

// TestUnknownCountsFollowContentionRuns predicts ownerfilter, whose
// ranks keep the items they own in a struct's slice: the timed loop's
// count is not known to the simulation, and was taken at the one-rank
// profile's at every P (helper J's pic1d, +101 / +193 / +550 %). The
// profile's --ppn runs counted it at 2 ranks, which now gives the count
// at each P.
func TestUnknownCountsFollowContentionRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	mp, oracle, m := prepareOnIBQDR(t, SpeedupOptions{Dir: "..", Package: "./prediction/testdata/ownerfilter",
		NP: []int{1}, ProfilePPN: []int{1, 2}, ProfileOut: filepath.Join(t.TempDir(), "p.json")})
	oracle.nodeContention(m)
	wantQuarterAtFour(t, mp, oracle, m, nil)
	// The assumption says where the count at 4 ranks comes from, and
	// that it is the ranks' mean, not rank 0's.
	_, sp, err := simulate(mp, oracle, m, 4, 4, 1, commmodel.Block, nil, interpreter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(sp.Assumptions(), func(a interpreter.Assumption) bool {
		return strings.Contains(a.What, "iterations per entry at 4 ranks (extrapolated from its means in the profile's runs at 1 and 2 ranks") && strings.Contains(a.What, "the ranks' mean)")
	}) {
		t.Errorf("P = 4: no assumption that the count is extrapolated, the ranks' mean: %v", sp.Assumptions())
	}
}

// TestUnknownLengthsFollowContentionRuns: each rank of recvsort sorts
// what an Alltoallv delivers, a buffer sized by counts the ranks
// exchange, whose length the interpreter cannot know. Without the
// contention runs' lengths the sort cost its profiled time per call at
// every P (the whole input's sort on every rank); with them it costs the
// share the runs saw, so P = 4 takes about a quarter of P = 1's time.
func TestUnknownLengthsFollowContentionRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	out := filepath.Join(t.TempDir(), "p.json")
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/recvsort", ProfilePPN: []int{1, 2},
		NP: []int{1, 4, 8}, Machine: "ib-qdr", ProfileOut: out}
	pred, err := Speedup(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	rows := pred.Report.Rows
	if r := rows[1].Time / rows[0].Time; r > 0.4 {
		t.Errorf("P = 4 is predicted %.2f times P = 1's time, want about 0.25", r)
	}
	if !slices.ContainsFunc(pred.Assumptions, func(a interpreter.Assumption) bool {
		return strings.Contains(a.What, "slices.Sort is given data of a length not known here: 50000 (at P = 4), 25000 (at P = 8) elements assumed, extrapolated")
	}) {
		t.Errorf("no assumption on the sort's length at P = 8: %v", pred.Assumptions)
	}

	// The same profile without the lengths (as revision 3 made it).
	prof, err := profiler.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	prof.Contention.Lengths = nil
	old := filepath.Join(t.TempDir(), "old.json")
	if err := prof.Save(old); err != nil {
		t.Fatal(err)
	}
	opts.Profile = old
	before, err := Speedup(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if r := before.Report.Rows[1].Time / before.Report.Rows[0].Time; r < 0.6 {
		t.Errorf("without the lengths P = 4 is predicted %.2f times P = 1's time, want the whole sort on every rank", r)
	}
}

// TestUnreachedBranchesHint: a branch on exchanged data that runs only
// with two ranks or more has no profile data in a profile made at one
// rank, and the notes say how to get it; profiled at two ranks (the
// smallest predicted), it has.
func TestUnreachedBranchesHint(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	for _, tc := range []struct {
		np   []int
		hint bool
	}{{[]int{1, 2}, true}, {[]int{2, 4}, false}} {
		pred, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./prediction/testdata/onlymany",
			NP: tc.np, Machine: "ib-qdr", ProfileOut: filepath.Join(t.TempDir(), "p.json")})
		if err != nil {
			t.Fatal(err)
		}
		notes := strings.Join(pred.Notes, "\n")
		if got := slices.Contains(pred.Notes, unreachedHint); got != tc.hint {
			t.Errorf("--np %v: hint %v, want %v: %s", tc.np, got, tc.hint, notes)
		}
		if got := strings.Contains(notes, "branch without profile data"); got != tc.hint {
			t.Errorf("--np %v: branch without profile data noted %v, want %v: %s", tc.np, got, tc.hint, notes)
		}
	}
}

// TestExitRatesFollowContentionTrips: pairmerge's merge runs only with
// two ranks or more and exits on data the interpreter does not know (how
// many numbers each rank kept). Its profile at one rank has its numbers
// from the contention run at two ranks, where each entry ran about 2n/2
// iterations; at four ranks the runs saw half that, and the exit tests'
// rate doubles there, so the merge runs as the runs at four ranks did.
func TestExitRatesFollowContentionTrips(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	out := filepath.Join(t.TempDir(), "p.json")
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/pairmerge", Args: []string{"-n", "40000"},
		ProfilePPN: []int{1, 2, 4}, NP: []int{1, 2, 4, 8}, Machine: "ib-qdr", ProfileOut: out}
	pred, err := Speedup(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(pred.Notes, "\n")
	if strings.Count(notes, "its iterations per entry at each rank count follow the profile's --ppn runs (4e+04 at 2, 2e+04 at 4 ranks") != 1 {
		t.Errorf("notes: %s", notes)
	}
	opts.Profile = out
	_, oracle, err := prepare(context.Background(), opts, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	m, err := commmodel.Load("ib-qdr")
	if err != nil {
		t.Fatal(err)
	}
	nc := oracle.nodeContention(m)
	exits := 0
	for b, e := range oracle.loopExit {
		if pr, _ := oracle.region(e.id); pr.Ranks != 2 {
			continue
		}
		exits++
		leave := func(p int) float64 {
			q, _ := oracle.onNode(nc, p, 1, p).BranchTaken(b)
			if e.stay0 {
				return 1 - q
			}
			return q
		}
		if r := leave(4) / leave(2); r < 1.98 || r > 2.02 {
			t.Errorf("%s: exit rate at 4 ranks %.3g times that at 2, want 2", e.id, r)
		}
		if r := leave(2) / leave(1); r != 1 {
			t.Errorf("%s: exit rate at 2 ranks %.3g times the profile's (a rank count the runs did not enter it at), want 1", e.id, r)
		}
	}
	if exits != 2 {
		t.Errorf("%d exit tests of loops from the run at 2 ranks, want the merge's 2", exits)
	}
}

// TestMergeExitsTogether: pairmerge's merge leaves when either of its two
// inputs runs out, each test on data the interpreter does not know and
// with outcome counts of its own (each exited once per entry in the
// contention run at two ranks). Together they leave at the sum of their
// rates: at two ranks the merge runs about the 2n/2 iterations per entry
// the run saw, not twice that (each test's rate alone).
func TestMergeExitsTogether(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	const n = 40000
	args := []string{"-n", strconv.Itoa(n)}
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/pairmerge", Args: args,
		ProfilePPN: []int{1, 2}, ProfileOut: filepath.Join(t.TempDir(), "p.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	var header *ssa.BasicBlock
	for b, e := range oracle.loopExit {
		if pr, _ := oracle.region(e.id); pr.Ranks == 2 {
			header = b.Parent().Blocks[0]
			for _, r := range b.Parent().Blocks {
				if oracle.blockLabel[r] == e.id {
					header = r
				}
			}
		}
	}
	if header == nil || oracle.block[header] <= 0 {
		t.Fatalf("no costed header of the merge loop (%v)", header)
	}
	compute := func() float64 {
		run, _, err := simulate(mp, oracle, m, 2, 2, 1, commmodel.Block, args, interpreter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return run.Ranks[0].Compute
	}
	with := compute()
	// What an iteration costs a rank alone on its node, as simulated:
	// the merge's numbers come from the run at two ranks, its contention
	// taken out.
	cost := oracle.onNode(oracle.nodeContention(m), 1, 1, 2).BlockCost(header)
	oracle.block[header] = 0
	trips := (with - compute()) / cost
	if trips < 0.9*n || trips > 1.1*n {
		t.Errorf("the merge ran %.0f iterations at two ranks, want about %d", trips, n)
	}
}

// TestKernelCalledFromUnreachedCode: selfwork's kernels (one called
// directly, one through a function value, whose time is its call sites')
// are called by rank 0 at one rank and by the other ranks at more. A
// profile at one rank has the other ranks' loop from the contention run
// at two ranks; the kernels' time, measured in the profiled run, stays
// with rank 0's calls there (summed with the other run's call sites into
// the second kernel's rate per iteration, P = 1 was predicted at 133 %;
// shared with them, at half its time) and is charged per call to the
// others'. The loop of Barriers that only the other ranks run is not
// taken from the contention run: it holds MPI calls, whose waiting the
// run's numbers hold too.
func TestKernelCalledFromUnreachedCode(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	out := filepath.Join(t.TempDir(), "p.json")
	pred, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./prediction/testdata/selfwork",
		ProfilePPN: []int{1, 2}, NP: []int{1, 2, 4}, Machine: "ib-qdr", ProfileOut: out})
	if err != nil {
		t.Fatal(err)
	}
	prof, err := profiler.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	rows := pred.Report.Rows
	if plain := prof.Totals.PlainBodyNs * 1e-9; rows[0].Time < 0.8*plain || rows[0].Time > 1.25*plain {
		t.Errorf("P = 1 predicted %.4g s, the program without probes ran %.4g s", rows[0].Time, plain)
	}
	if r := rows[1].Time / rows[0].Time; r < 0.8 || r > 1.25 {
		t.Errorf("P = 2 (one rank does every item) predicted %.2f times P = 1", r)
	}
	if r := rows[2].Time / rows[1].Time; r < 0.25 || r > 0.45 {
		t.Errorf("P = 4 (three ranks share the items) predicted %.2f times P = 2, want about 1/3", r)
	}
	for _, r := range prof.Regions {
		if r.Kind == profiler.Loop && r.Line == 54 && (r.Ranks != 0 || r.Execs != 0) {
			t.Errorf("the loop of Barriers: ranks %d, execs %d; want it left unreached", r.Ranks, r.Execs)
		}
	}
	filled := false
	for _, s := range prof.MPI {
		filled = filled || s.Op == "Barrier" && s.Ranks == 2
	}
	if !filled {
		t.Errorf("no Barrier site from the run at 2 ranks: %+v", prof.MPI)
	}
}

// TestConvergenceLoopIsNoted: cg's iteration stops on a residual the
// interpreter does not know, so it repeats the profile's iteration count;
// predicted with other arguments, the notes say how many and from which.
func TestConvergenceLoopIsNoted(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	out := filepath.Join(t.TempDir(), "p.json")
	for _, n := range []string{"32", "64"} {
		pred, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./examples/cg",
			Args: []string{"-n", n, "-check=false"}, ProfileArgs: []string{"-n", "32", "-check=false"},
			NP: []int{1}, Machine: "ib-qdr", ProfileOut: out})
		if err != nil {
			t.Fatal(err)
		}
		notes := strings.Join(pred.Notes, "\n")
		noted := strings.Contains(notes, "exits on data the interpreter does not know: it runs") &&
			strings.Contains(notes, "iterations per entry, as in the profile's run (-n 32 -check=false)")
		if want := n != "32"; noted != want {
			t.Errorf("-n %s: noted %v, want %v: %s", n, noted, want, notes)
		}
	}
}

// TestUnusedDataExitIsNoted: heat with -steps runs "step < maxSteps &&
// global[0] > tol" with tol = -1, whose data test (the Allreduce's result,
// unknown) never ended the loop in the profile's run: the count is the
// other test's (-steps), which the note must say rather than the
// profile's iterations per entry.
func TestUnusedDataExitIsNoted(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	out := filepath.Join(t.TempDir(), "p.json")
	var times []float64
	for _, steps := range []string{"20", "40"} {
		var logged strings.Builder
		pred, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./examples/heat",
			Args: []string{"-n", "256", "-steps", steps, "-check=false"}, ProfileArgs: []string{"-n", "256", "-steps", "10", "-check=false"},
			NP: []int{2}, Machine: "ib-qdr", ProfileOut: out, Log: func(format string, a ...any) { fmt.Fprintf(&logged, format+"\n", a...) }})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(logged.String(), "--profile-args gives") {
			t.Errorf("-steps %s: told to use --profile-args, which was given:\n%s", steps, logged.String())
		}
		notes := strings.Join(pred.Notes, "\n")
		if strings.Contains(notes, "iterations per entry, as in the profile's run") ||
			!strings.Contains(notes, "never ended the loop in the profile's run (-n 256 -steps 10 -check=false)") {
			t.Errorf("-steps %s: notes do not say that the data test never ended the loop:\n%s", steps, notes)
		}
		times = append(times, pred.Sweep.Points[0].Time)
	}
	// Twice the steps, nearly twice the time (set-up and the gather
	// besides): the loop ran the steps asked for.
	if r := times[1] / times[0]; r < 1.7 || r > 2 {
		t.Errorf("-steps 40 predicted %.3g times -steps 20's time, want nearly 2", r)
	}
}

// TestUntimedNestIsNoted: a kernel passed as a function value runs
// untimed in the profile (a function used as a value is never timed); the
// call through the value also runs math.Sqrt, whose runs the profile does
// not count, so the call's time cannot be given to the kernel: its time
// is its caller's and does not follow its trip count, and the notes say
// so and what to change. The call's time is charged whichever function
// it runs: math.Sqrt, evaluated by the interpreter, was charged nothing
// before, the simulation of the profiled run gave half its measured time,
// and the self-check noted it.
func TestUntimedNestIsNoted(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	pred, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./prediction/testdata/libvalue",
		NP: []int{1}, Machine: "ib-qdr", ProfileOut: filepath.Join(t.TempDir(), "p.json")})
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(pred.Notes, "\n"); !strings.Contains(notes, "nest main.work:loop") || !strings.Contains(notes, "was not timed") ||
		strings.Contains(notes, "the simulation of the profiled run itself") {
		t.Errorf("notes: %s", notes)
	}
}

// TestNestedCallKernelScales: a kernel called in another call's
// arguments, total(c, work(n/P)), is timed in place (the profiler's
// inline call timers), so its loop is timed and follows the rank's share.
// Before, the statement's two calls got no timer, work ran untimed and
// four ranks were predicted 0.94 times as fast as one.
func TestNestedCallKernelScales(t *testing.T) {
	checkKernelScales(t, "nestedcall", "-n", "2000000")
}

// TestClosureKernelScales: a kernel written as a closure runs untimed
// (the profiler times no function literal but rank bodies), its call
// statement timed with the closure's time; charged per iteration of the
// closure's loop (kernelRates, finding the callee in the SSA), it
// follows the rank's share: four ranks predict well over twice as fast.
// Charged per call (before), P = 4 took as long as P = 1.
func TestClosureKernelScales(t *testing.T) {
	checkKernelScales(t, "closurekernel")
}

// TestDynamicAndRecursiveKernelsScale: a kernel called through an
// interface that one type implements is timed as that type's method (the
// profiler resolves the call); one that recurses is too fine to time, its
// outer call statements are, and it is charged per iteration of its loop
// (kernelRates, the recursive calls' time inside the outer site's). Both
// follow the rank's share; charged per call (before), P = 4 took as long
// as P = 1.
func TestDynamicAndRecursiveKernelsScale(t *testing.T) {
	for _, pkg := range []string{"ifacekernel", "recursivekernel"} {
		checkKernelScales(t, pkg)
	}
}

// checkKernelScales profiles prediction/testdata/pkg with args and
// predicts it at P = 1 and 4 on ib-qdr: its kernel's share shrinks with
// P (over 2.5 times as fast on four ranks), and no nest ran untimed.
func checkKernelScales(t *testing.T, pkg string, args ...string) {
	t.Helper()
	if testing.Short() {
		t.Skip("profiles a program")
	}
	pred, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./prediction/testdata/" + pkg,
		NP: []int{1, 4}, Machine: "ib-qdr", ProfileOut: filepath.Join(t.TempDir(), "p.json"), ProfileArgs: args, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	if s := pred.Report.Rows[1].Speedup; s < 2.5 {
		t.Errorf("%s: speedup at P = 4: %.2f, want the kernel's share to shrink with P", pkg, s)
	}
	if notes := strings.Join(pred.Notes, "\n"); strings.Contains(notes, "was not timed") {
		t.Errorf("%s: notes: %s", pkg, notes)
	}
}

// TestValueAndInterfaceKernelsScale: a kernel reached through a function
// value (apply(work, n)), or through an interface that two of the
// program's types implement, one chosen by a flag, is timed at its call
// site only (the profiler cannot tell what such a call reaches); the SSA's
// candidates for the call, of which the profile's counts show one ran
// (dynamicSites), give the site's time to that kernel's loops. Before, the
// site was charged per call and P = 4 took as long as P = 1. A method
// value called in a small loop (repeat(5, g.relax, u)): the loop is
// executed rather than reduced with the site's time per iteration
// (callsCarriedKernel), and the method runs through its synthetic wrapper
// (IsUser); before, 0.94. The same wrapper runs a method promoted from an
// embedded field (logged embeds *jacobi) called through an interface:
// taken for a library call before, the kernel cost nothing (T(1) 1 ms of
// 200) and P = 4 read 0.93.
func TestValueAndInterfaceKernelsScale(t *testing.T) {
	checkKernelScales(t, "valuekernel", "-n", "4000000")
	checkKernelScales(t, "ifacechoice")
	checkKernelScales(t, "methodvalue")
	checkKernelScales(t, "embedkernel")
}

// TestSharedValueSiteScales: one call site through a function value runs
// two kernels (apply(harmonic, n) + apply(squares, n)); the profile has
// their time together, so they share one rate per iteration, which still
// follows the rank's share, and the notes say so.
func TestSharedValueSiteScales(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "4000000"} // kernels of milliseconds: a sub-millisecond run scaled 2.3-3.1 with the machine's noise
	pred, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./prediction/testdata/twovalues",
		NP: []int{1, 4}, Machine: "ib-qdr", ProfileOut: filepath.Join(t.TempDir(), "p.json"), Args: args, ProfileArgs: args})
	if err != nil {
		t.Fatal(err)
	}
	if s := pred.Report.Rows[1].Speedup; s < 2.5 {
		t.Errorf("speedup at P = 4: %.2f, want the kernels' share to shrink with P", s)
	}
	notes := strings.Join(pred.Notes, "\n")
	if !strings.Contains(notes, "main.harmonic, main.squares ran from the same call sites") || strings.Contains(notes, "was not timed") {
		t.Errorf("notes: %s", notes)
	}
}

// TestOlderProbesProfileIsRemade: a default profile made by an older
// probe placement (meta probes absent) is made again, not reused.
func TestOlderProbesProfileIsRemade(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	path := filepath.Join(t.TempDir(), "p.json")
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/nestedcall", NP: []int{1}, ProfileOut: path}
	var log []string
	logf := func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) }
	p, err := obtainProfile(context.Background(), opts, logf)
	if err != nil {
		t.Fatal(err)
	}
	if p.Meta.Probes != profiler.Probes {
		t.Fatalf("new profile's probes %d, want %d", p.Meta.Probes, profiler.Probes)
	}
	if _, err := obtainProfile(context.Background(), opts, logf); err != nil {
		t.Fatal(err)
	}
	if n := len(log); n != 2 { // profiling, wrote; then nothing: reused
		t.Fatalf("log after reuse: %q", log)
	}
	p.Meta.Probes = 0
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	log = nil
	p, err = obtainProfile(context.Background(), opts, logf)
	if err != nil {
		t.Fatal(err)
	}
	if p.Meta.Probes != profiler.Probes || len(log) == 0 || !strings.Contains(log[0], "an older profiler made it") {
		t.Errorf("probes %d, log %q: want the profile made again", p.Meta.Probes, log)
	}
}

// TestUnreadableProfile: a --profile file that is not a profile is an
// error naming the file and position; a default profile that cannot be
// read is made again (neither panics).
func TestUnreadableProfile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("root:x:0:0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/nestedcall", NP: []int{1}, Profile: bad}
	_, err := obtainProfile(context.Background(), opts, func(string, ...any) {})
	if err == nil || !strings.Contains(err.Error(), bad+":1:") {
		t.Fatalf("explicit unreadable profile: error %v, want one naming %s and its position", err, bad)
	}
	if testing.Short() {
		t.Skip("profiles a program")
	}
	opts.Profile, opts.ProfileOut = "", bad
	var log []string
	p, err := obtainProfile(context.Background(), opts, func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) })
	if err != nil {
		t.Fatal(err)
	}
	if p.Meta.Probes != profiler.Probes || len(log) == 0 || !strings.Contains(log[0], "cannot be reused") {
		t.Errorf("probes %d, log %q: want the default profile made again", p.Meta.Probes, log)
	}
}

// TestProfileRanks: a profile made for a sweep runs the smallest count
// predicted, but not thousands of goroutine ranks on a laptop's cores.
func TestProfileRanks(t *testing.T) {
	for _, tt := range []struct {
		np          []int
		cores, want int
	}{
		{nil, 2, 1},
		{[]int{1, 2, 4}, 2, 1},
		{[]int{2, 4, 8}, 16, 2},
		{[]int{4096, 16384}, 2, 2},
		{[]int{64, 128}, 16, 16},
		{[]int{8}, 1, 2}, // a ping-pong still gets its two ranks
	} {
		if got := profileRanks(tt.np, tt.cores); got != tt.want {
			t.Errorf("profileRanks(%v, %d) = %d, want %d", tt.np, tt.cores, got, tt.want)
		}
	}
}

// TestNoConfigurationFitsBeforeProfiling: a sweep none of whose
// configurations fits the machine fails before the profile run, saying
// what to change.
func TestNoConfigurationFitsBeforeProfiling(t *testing.T) {
	out := filepath.Join(t.TempDir(), "heat.profile.json")
	_, err := Speedup(context.Background(), SpeedupOptions{Dir: "..", Package: "./examples/heat", NP: []int{1024}, Machine: "ib-qdr", ProfileOut: out})
	if err == nil || !strings.Contains(err.Error(), "no configuration fits the machine: P=1024 at 12 per node needs 86 nodes") || !strings.Contains(err.Error(), "--machine") {
		t.Fatalf("error %v, want that no configuration fits and what to change", err)
	}
	if _, serr := os.Stat(out); !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("the program was profiled before the configurations were checked (%s: %v)", out, serr)
	}
}

// TestWarnUnsupported: the goroutines and channels a prediction would
// stop at are told before the profile run, with what to do; an example
// without any is told nothing.
func TestWarnUnsupported(t *testing.T) {
	for _, tt := range []struct {
		pkg  string
		want []string
	}{
		{"./examples/heat", nil},
		{"./interpreter/testdata/unsupported", []string{"uses goroutines or channels", "do their work in the rank's code",
			"main.go:22:4: go statement in main.main$1", "main.go:30:4: channel send or select in main.main$1", "and 1 more"}},
	} {
		mp, _, err := loadPlan("..", tt.pkg)
		if err != nil {
			t.Fatal(err)
		}
		var told strings.Builder
		warnUnsupported(mp, func(format string, a ...any) { fmt.Fprintf(&told, format+"\n", a...) })
		if tt.want == nil && told.Len() > 0 {
			t.Errorf("%s: told %q, want nothing", tt.pkg, told.String())
		}
		for _, w := range tt.want {
			if !strings.Contains(told.String(), w) {
				t.Errorf("%s: told %q, want %q in it", tt.pkg, told.String(), w)
			}
		}
	}
}

// A placement that several --ppn values give (P = 1 at any ppn, P = 2 at
// ppn 2 and 4) is simulated and reported once: the report refuses two
// points of one configuration.
func TestSweepConfigsDistinct(t *testing.T) {
	m, err := commmodel.Load("ib-qdr")
	if err != nil {
		t.Fatal(err)
	}
	configs, _ := sweepConfigs(m, []int{1, 2, 4}, SpeedupOptions{NP: []int{1, 2, 4}})
	var got []string
	for _, c := range configs {
		got = append(got, fmt.Sprintf("%d:%dx%d", c.p, c.nodes, c.per))
	}
	want := "[1:1x1 2:2x1 4:4x1 2:1x2 4:2x2 4:1x4]"
	if fmt.Sprint(got) != want {
		t.Errorf("configurations %v, want %s", got, want)
	}
}

// TestUnknownCountsWithoutContentionRunsSaySo: ownerfilter's nest count
// needs a length the ranks do not know; profiled without contention runs
// it is the one-rank count at every P, and the report says how to get
// the share instead.
func TestUnknownCountsWithoutContentionRunsSaySo(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	mp, oracle, m := prepareOnIBQDR(t, SpeedupOptions{Dir: "..", Package: "./prediction/testdata/ownerfilter",
		NP: []int{1}, ProfileOut: filepath.Join(t.TempDir(), "p.json")})
	if _, _, err := simulate(mp, oracle, m, 4, 1, 4, commmodel.Block, nil, interpreter.Options{}); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(oracle.Notes(), unknownCountHint) {
		t.Errorf("notes %q: want the hint to profile with contention runs", oracle.Notes())
	}
	// Predicted with other arguments than the profile's, the count that
	// came from the profile's run is one of those arguments': said so.
	const fromArgs = "which the rank does not know, and is taken from the profile's runs, made with the profile's arguments ()"
	if notes := strings.Join(oracle.Notes(), "\n"); strings.Contains(notes, fromArgs) {
		t.Errorf("the profile's arguments: noted %q", notes)
	}
	oracle.SetArgs([]string{"-n", "800000"})
	if _, _, err := simulate(mp, oracle, m, 4, 1, 4, commmodel.Block, []string{"-n", "800000"}, interpreter.Options{}); err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(oracle.Notes(), "\n"); !strings.Contains(notes, fromArgs) {
		t.Errorf("-n 800000: no note that the unknown count is the profile's arguments': %s", notes)
	}
}
