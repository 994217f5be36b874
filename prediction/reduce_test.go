package prediction

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/loopnest"
	"github.com/parpredict/parpredict/model"
	"golang.org/x/tools/go/ssa"
)

// Predictions at another size than the profile's follow the work of
// kernels written as Go programmers write them, with no assumption made
// (every nest reduced, none run):
//   - kernelcall: a reduced loop calls a kernel whose loop runs over all of
//     a rank's particles for each of them (the callee's iterations follow
//     its argument: the square of -n, where the profile's time per call,
//     charged per iteration of the caller, gave -n);
//   - grid2d: a method's loops bounded by a struct's fields, a function
//     ranging over the rows of a 2-D slice made row by row (counts read
//     from the interpreter's memory at each entry);
//   - nbody: a kernel stepping by a stride parameter over len(s.bodies),
//     writing through &s.bodies[i] (the struct stays known);
//   - copies: copy statements of a rank's arrays, costed per element;
//   - sparse: a CSR matrix built by appends in a reduced loop (the slices
//     lengthened by the appends' count), multiplied from rowPtr[i] to
//     rowPtr[i+1];
//   - summa: SUMMA on row and column communicators made with Split (the
//     panels broadcast on them, the blocks' sizes from the grid);
//   - rowaccessor: rows reached through a method returning a slice of a
//     struct's array (g.row(k)), written by the nest: the struct's sizes
//     stay known (they became unknown, and every rank swept all rows);
//   - fieldstore: a filter loop appending to one field of a struct (a
//     reduced nest) leaves its other fields, the rank's bounds, known
//     (the whole struct became unknown, and every rank did all the work);
//   - rowkernel: a kernel called for each row of a [][]float64, too short
//     per call for a timer, so that the profile has its time in the row
//     loop's (counted per element of the rows, len(y[i]) read from the
//     interpreter's memory, where it was charged per row).
func TestPredictionsFollowTheWork(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles programs")
	}
	for _, tc := range []struct {
		pkg       string
		args      func(n string) []string
		base, big string
		// Wanted ranges of the interval at (P = 1, big) and at (P = 2, big)
		// over the interval at (P = 1, base).
		lo1, hi1, lo2, hi2 float64
	}{
		{"kernelcall", func(n string) []string { return []string{"-n", n, "-steps", "3"} }, "600", "1200", 3.5, 4.3, 0.9, 1.2},
		{"grid2d", func(n string) []string { return []string{"-n", n, "-m", "128", "-steps", "5"} }, "256", "1024", 3.6, 4.3, 1.8, 2.3},
		{"nbody", func(n string) []string { return []string{"-n", n, "-steps", "3"} }, "300", "600", 3.5, 4.3, 1.7, 2.3},
		{"copies", func(n string) []string { return []string{"-n", n, "-steps", "20"} }, "262144", "1048576", 3.2, 4.8, 1.6, 2.8},
		{"sparse", func(n string) []string { return []string{"-n", n, "-band", "10", "-steps", "10"} }, "20000", "80000", 3.5, 4.5, 1.7, 2.3},
		{"summa", func(n string) []string { return []string{"-n", n, "-check=false"} }, "240", "480", 7.0, 9.0, 3.5, 4.8},
		{"shapes", func(n string) []string { return []string{"-n", n, "-steps", "3"} }, "20000", "80000", 3.5, 4.3, 1.7, 2.3},
		{"rangelib", func(n string) []string { return []string{"-n", n, "-reps", "5"} }, "200000", "800000", 3.5, 4.5, 1.7, 2.3},
		{"rangeown", func(n string) []string { return []string{"-n", n, "-reps", "5"} }, "200000", "800000", 3.5, 4.5, 1.7, 2.3},
		{"rowkernel", func(n string) []string { return []string{"-n", n} }, "64", "256", 3.5, 4.5, 1.7, 2.3},
		{"rowaccessor", func(n string) []string { return []string{"-n", n, "-steps", "50"} }, "200", "400", 3.5, 4.5, 1.7, 2.3},
		{"fieldstore", func(n string) []string { return []string{"-n", n} }, "2000", "4000", 1.8, 2.2, 0.9, 1.1},
		{"methodbound", func(n string) []string { return []string{"-n", n} }, "300", "600", 3.5, 4.5, 1.7, 2.3},
	} {
		t.Run(tc.pkg, func(t *testing.T) {
			pkg := "./prediction/testdata/" + tc.pkg
			opts := SpeedupOptions{Dir: "..", Package: pkg, NP: []int{1}, Args: tc.args(tc.base),
				ProfileArgs: tc.args(tc.base), ProfileOut: filepath.Join(t.TempDir(), "profile.json")}
			mp, oracle, m := prepareOnIBQDR(t, opts)
			interval := func(p int, n string) float64 {
				t.Helper()
				a := tc.args(n)
				oracle.SetArgs(a)
				run, progs, err := simulate(mp, oracle, m, p, 1, p, commmodel.Block, a, interpreter.Options{})
				if err != nil {
					t.Fatal(err)
				}
				for _, as := range progs.Assumptions() {
					t.Errorf("P = %d, -n %s: %s: %s", p, n, as.Pos, as.What)
				}
				span, ok := run.Interval(1)
				if !ok {
					t.Fatal("no interval 1")
				}
				return span
			}
			base := interval(1, tc.base)
			t.Logf("P = 1: the interval at -n %s is %.6g s, at -n %s %.6g s; P = 2 at -n %s: %.6g s", tc.base, base, tc.big, interval(1, tc.big), tc.big, interval(2, tc.big))
			if r := interval(1, tc.big) / base; r < tc.lo1 || r > tc.hi1 {
				t.Errorf("P = 1: the interval at -n %s over -n %s is %.2f; want %.1f to %.1f", tc.big, tc.base, r, tc.lo1, tc.hi1)
			}
			if r := interval(2, tc.big) / base; r < tc.lo2 || r > tc.hi2 {
				t.Errorf("P = 2 at -n %s over P = 1 at -n %s is %.2f; want %.1f to %.1f", tc.big, tc.base, r, tc.lo2, tc.hi2)
			}
		})
	}
}

// What a nest writes through a struct's slice field or a 2-D slice is the
// rows' memory, reached by a path; the struct and the row headers stay
// known.
func TestWritesThroughPaths(t *testing.T) {
	got := nestWrites(t, "testdata/grid2d")
	for fn, want := range map[string]string{
		"relax":  "through g [{2}] elems=true",
		"smooth": "through a [] elems=true",
	} {
		if got[fn] != want {
			t.Errorf("%s writes %q, want %q", fn, got[fn], want)
		}
	}
	// fieldstore's filter assigns d.items alone: d's bounds stay known.
	if got := nestWrites(t, "testdata/fieldstore")["main$1"]; got != "through t13 [{2}] elems=false slot []int" {
		t.Errorf("the filter loop writes %q, want %q", got, "through t13 [{2}] elems=false slot []int")
	}
	// rowaccessor writes through g.row(k), a slice of g.v: g stays known.
	if got := nestWrites(t, "testdata/rowaccessor")["sweep"]; got != "through g [{2}] elems=false" {
		t.Errorf("sweep writes %q, want %q", got, "through g [{2}] elems=false")
	}
	// capturedread's constructor calls two closures through one
	// parameter: one only reads the options it captures, the other
	// counts in a captured variable. Both write the slice they make
	// (t0); only fill[int], whose closures include the counter's, writes
	// what its mk reaches.
	got = nestWrites(t, "testdata/capturedread")
	// scaleAll's closure writes only the row it is given: the loop
	// writes the rows, not what the closure captures.
	for fn, want := range map[string]string{"fill[[]float64]": "write t0", "fill[int]": "write mk; write t0", "scaleAll": "through bufs [] elems=true"} {
		if got[fn] != want {
			t.Errorf("capturedread: %s writes %q, want %q (all: %q)", fn, got[fn], want, got)
		}
	}
	// fieldcall's build stores a call's result into m.col and appends
	// to m.rowptr: both fields are forgotten as slots (with the arrays
	// they held at entry), and m.lo, m.hi stay known.
	if got, want := nestWrites(t, "testdata/fieldcall")["build"], "through t0 [{3}] elems=false slot []int32; through t0 [{2}] elems=false slot []int"; got != want {
		t.Errorf("fieldcall: build writes %q, want %q", got, want)
	}
	// blocks2d's kernels call b.at(i, j), which writes nothing: b stays
	// known, only the arrays behind its fields are written.
	got = nestWrites(t, "testdata/blocks2d")
	for fn, want := range map[string]string{
		"sweep":     "through b [{3}] elems=false",
		"unpackCol": "through b [{2}] elems=false",
		"packCol":   "write dst",
	} {
		if got[fn] != want {
			t.Errorf("%s writes %q, want %q", fn, got[fn], want)
		}
	}
}

// nestWrites describes, per function, what the reduced nests of the
// program in dir write.
func nestWrites(t *testing.T, dir string) map[string]string {
	t.Helper()
	mp, err := model.Load(model.Config{Dir: dir}, ".")
	if err != nil {
		t.Fatal(err)
	}
	lp, err := loopnest.FromModel(mp, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, root := range lp.Nests() {
		in := map[*ssa.BasicBlock]bool{}
		for _, b := range root.Blocks {
			in[b] = true
		}
		plain, through := writes(root.Blocks, in, nil, lp.StoresNothing, lp.DynamicCallees)
		var parts []string
		for _, v := range plain {
			parts = append(parts, "write "+v.Name())
		}
		for _, p := range through {
			fields := make([]struct{ Field int }, len(p.Steps))
			for i, st := range p.Steps {
				fields[i].Field = st.Field
			}
			desc := fmt.Sprintf("through %s %v elems=%v", p.Base.Name(), fields, p.Elems)
			if p.Slot != nil {
				desc += " slot " + p.Slot.String()
			}
			parts = append(parts, desc)
		}
		got[root.Func.Name()] = strings.Join(parts, "; ")
	}
	return got
}

// A loop that deals its rows out cyclically (y += size) is costed row by
// row from the profile's per-iteration times: at two ranks, rank 1 gets
// every odd row, twenty times as expensive as an even one.
func TestCyclicRowsCostedByIteration(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-rows", "64", "-n", "4000"}
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/cyclic", NP: []int{1, 2}, Args: args,
		ProfileArgs: args, ProfileOut: filepath.Join(t.TempDir(), "profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	run, progs, err := simulate(mp, oracle, m, 2, 1, 2, commmodel.Block, args, interpreter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, as := range progs.Assumptions() {
		t.Errorf("%s: %s", as.Pos, as.What)
	}
	// The rows' compute: what each rank computes after the interval
	// begins (nothing but compute comes before it).
	rows := func(r int) float64 {
		if len(run.Marks[r]) == 0 {
			t.Fatalf("rank %d marks no interval", r)
		}
		return run.Ranks[r].Compute - run.Marks[r][0].T
	}
	t.Logf("rows' compute: rank 0 %.6g s, rank 1 %.6g s", rows(0), rows(1))
	if r := rows(1) / rows(0); r < 15 || r > 25 {
		t.Errorf("rank 1 computes its rows %.2f times as long as rank 0; want about 20", r)
	}
}

// A nest's trip count that divides by a sub-communicator's size takes
// that size, not the number of ranks, whether the size was asked before
// the loop or is the loop's step: rowsize's halves have 2 ranks at P = 4
// and 4 at P = 8, so each rank's rows are a half and a quarter of its
// rows alone.
func TestTripCountsOfSubCommunicators(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "400", "-m", "2000"}
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/rowsize", NP: []int{1}, Args: args,
		ProfileArgs: args, ProfileOut: filepath.Join(t.TempDir(), "profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	compute := func(p int) float64 {
		// One rank per node: no node's cores are shared.
		run, progs, err := simulate(mp, oracle, m, p, p, 1, commmodel.Block, args, interpreter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, as := range progs.Assumptions() {
			t.Errorf("P = %d: %s: %s", p, as.Pos, as.What)
		}
		return run.Ranks[0].Compute - run.Marks[0][0].T
	}
	one := compute(1)
	for _, tc := range []struct {
		p    int
		want float64
	}{{4, 0.5}, {8, 0.25}} {
		if r := compute(tc.p) / one; math.Abs(r-tc.want) > 0.05 {
			t.Errorf("P = %d: rank 0 computes %.3f of its time alone, want %.2f (its half's share)", tc.p, r, tc.want)
		}
	}
}

// A reduced loop that calls a function value writes what the closure
// behind it may write (its free variables): the value is among the
// nest's writes; one that calls an interface method writes what the
// method's receiver reaches.
func TestWritesOfDynamicCalls(t *testing.T) {
	got := nestWrites(t, "testdata/funcvals")
	for fn, want := range map[string]string{
		"forEach":  "write f",
		"scaleAll": "write s",
	} {
		if got[fn] != want {
			t.Errorf("%s writes %q, want %q", fn, got[fn], want)
		}
	}
}

// TestGivingUpOnUnknownResults: mandelbrot's rank 0 sums the gathered
// image (sum, returned as an integer, so not reduced) over pixels whose
// values the simulation does not have. Once the sum is unknown the rest
// of the loop is costed, not run: the simulation runs a small part of
// the instructions that running it step by step takes, and rank 0
// computes as long (the iterations left times the loop's own cost per
// iteration, which running them charges one by one; the sum of 1 M
// pixels is about a millisecond of it).
func TestGivingUpOnUnknownResults(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-width", "256", "-height", "4096", "-check=false"}
	withAndWithout(t, args, []string{"-check=false"}, func(red *interpreter.Reduction) bool { return red.GiveUp != nil },
		func(assumed []interpreter.Assumption, _ []string) {
			for _, a := range assumed {
				if strings.Contains(a.What, "loop main.sum:loop@kernels.go:+2:2 runs step by step for what it computes, which became unknown") {
					return
				}
			}
			t.Errorf("no assumption that main.sum's loop stopped running: %v", assumed)
		})
}

// withAndWithout predicts mandelbrot at 4 ranks with args (profiled with
// profArgs) as it is, hands the assumptions and notes to check, then
// again without the reductions that drop selects: the second must run
// at least ten times the instructions, and rank 0 compute as long within
// 1e-6.
func withAndWithout(t *testing.T, args, profArgs []string, drop func(*interpreter.Reduction) bool, check func([]interpreter.Assumption, []string)) {
	t.Helper()
	fastAsSlow(t, "./examples/mandelbrot", args, profArgs, drop, 10, 1e-6, check)
}

// TestGiveUpResults: which of testdata/giveup's loops, kept step by step
// because they return an integer, get a GiveUp: those whose results,
// once unknown, stay unknown.
func TestGiveUpResults(t *testing.T) {
	_, lp, err := loadPlan("..", "./prediction/testdata/giveup")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"main.Sum": true, "main.Count": true, "main.ArgMax": false, "main.Reset": false,
		"main.SumRows": true, "main.RowMax": false, "main.Hits": true}
	// Results decided by which arm ran: guesses where the profile decided.
	joinedWant := map[string]bool{"main.Sum": false, "main.Count": true, "main.SumRows": true, "main.Hits": true}
	for _, f := range lp.Funcs {
		name := "main." + f.Fn.Name()
		w, ok := want[name]
		if !ok {
			continue
		}
		delete(want, name)
		if len(f.Roots) != 1 {
			t.Fatalf("%s: %d outermost loops, want 1", name, len(f.Roots))
		}
		l := f.Roots[0]
		if !l.Reduction.SteersOnly() {
			t.Errorf("%s: reasons %q, want only that its result steers", name, l.Reduction.Reasons)
			continue
		}
		in := map[*ssa.BasicBlock]bool{}
		for _, b := range l.Blocks {
			in[b] = true
		}
		g, got := giveUp(l, in)
		if got != w {
			t.Errorf("%s: GiveUp %v, want %v", name, got, w)
		}
		if got && (len(g.Results) != 1 || g.Init == nil || g.Step != 1) {
			t.Errorf("%s: GiveUp %+v, want one result, the counter's start and step 1", name, g)
		}
		if j, ok := joinedWant[name]; ok && got && (len(g.Joined) != 1 || g.Joined[0] != j) {
			t.Errorf("%s: Joined %v, want [%v]", name, g.Joined, j)
		}
	}
	if len(want) > 0 {
		t.Errorf("functions not found: %v", want)
	}
}

// TestUntakenEndingArmIsReduced: mandelbrot's rank 0 compares the
// gathered image with a serial one pixel by pixel; a mismatch prints and
// calls Abort, which the profile's run never did. The rest of the loop
// only computes, so the loop is reduced and noted: the simulation runs a
// small part of the instructions that running it takes, and rank 0
// computes as long.
func TestUntakenEndingArmIsReduced(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	const check = "main.run:loop@main.go:+45:3"
	withAndWithout(t, []string{"-width", "256", "-height", "4096"}, []string{"-height", "256"},
		func(red *interpreter.Reduction) bool { return red.ID == check },
		func(_ []interpreter.Assumption, notes []string) {
			if n := strings.Join(notes, "\n"); !strings.Contains(n, "loop "+check+" is reduced: its only calls that are not pure are in an arm that ends the program") {
				t.Errorf("the check loop is not noted as reduced:\n%s", n)
			}
		})
}

// TestSwappedBuffersReduced: testdata/swapbuffers's round loop calls a
// kernel that counts over the buffer it is given, and trades its two
// buffers every iteration. Reduced, its buffers are set from the trip
// count (interpreter.Rotation) and the kernel's iterations counted over
// their lengths: rank 0 computes as long as when the loop runs step by
// step (each kernel call a reduced nest of its own), in a fraction of
// the instructions, at a size and rank count other than the profile's.
func TestSwappedBuffersReduced(t *testing.T) {
	fastAsSlow(t, "./prediction/testdata/swapbuffers", []string{"-n", "400000", "-steps", "2000"},
		[]string{"-n", "100000", "-steps", "200"}, func(red *interpreter.Reduction) bool { return red.Rotation != nil }, 5, 0.02, nil)
}

// TestGuessedCountGivesUp: testdata/guesscount's count (hits++ when a
// random point falls inside the circle) is known only by the guesses
// of its branch, which the profiled frequency decides; its loop, tested
// after its body (a range over an int), gives up once a guess decided
// it, and rank 0 computes as long as when the loop runs every iteration,
// in a small part of the instructions.
func TestGuessedCountGivesUp(t *testing.T) {
	fastAsSlow(t, "./prediction/testdata/guesscount", []string{"-n", "200000"}, nil,
		func(red *interpreter.Reduction) bool { return red.GiveUp != nil }, 100, 1e-3, nil)
}

// TestCompactionGivesUp: testdata/compaction's k++ under a test on data,
// whose arms each jump back to the loop's header (an if without an else),
// joins in the header phi itself; the count is a guess once the branch
// was, and the loop gives up as where the arms join before the back edge.
// It ran its 200,000 iterations per pass step by step before (12.6
// times the instructions; the loop over the k kept, whose count is then
// unknown, still runs step by step at its profiled exit rate).
func TestCompactionGivesUp(t *testing.T) {
	fastAsSlow(t, "./prediction/testdata/compaction", []string{"-n", "200000"}, nil,
		func(red *interpreter.Reduction) bool { return red.GiveUp != nil }, 10, 0.05, nil)
}

// TestGiveUpOverCutRows: testdata/cutrows's count gives up once its
// branch guessed it, though its inner loop counts over a row the body
// cuts, which the nest's time cannot count: the iterations left cost
// the profiled time per iteration (Reduction.IterTime), as long as
// running them within 5 %.
func TestGiveUpOverCutRows(t *testing.T) {
	fastAsSlow(t, "./prediction/testdata/cutrows", []string{"-n", "100000"}, nil,
		func(red *interpreter.Reduction) bool { return red.GiveUp != nil }, 100, 0.05, nil)
}

// fastAsSlow profiles pkg (with profArgs, nil: args) and predicts it at
// 4 ranks with args, hands the assumptions and notes to check (if not
// nil), then predicts again without the reductions that drop selects
// (there must be some): the first must run at most 1/fewer of the
// second's instructions, and rank 0 compute as long within tol.
func fastAsSlow(t *testing.T, pkg string, args, profArgs []string, drop func(*interpreter.Reduction) bool, fewer int64, tol float64, check func([]interpreter.Assumption, []string)) {
	t.Helper()
	if testing.Short() {
		t.Skip("profiles a program")
	}
	opts := SpeedupOptions{Dir: "..", Package: pkg, NP: []int{1}, Args: args,
		ProfileArgs: profArgs, ProfileOut: filepath.Join(t.TempDir(), "profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	predict := func() (float64, int64, []interpreter.Assumption) {
		run, progs, err := simulate(mp, oracle, m, 4, 1, 4, commmodel.Block, args, interpreter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return run.Ranks[0].Compute, progs.Steps(), progs.Assumptions()
	}
	fast, fastSteps, assumed := predict()
	if check != nil {
		check(assumed, oracle.Notes())
	}
	found := 0
	for e, red := range oracle.reduce {
		if drop(red) {
			delete(oracle.reduce, e)
			found++
		}
	}
	if found == 0 {
		t.Fatal("no reduction to drop")
	}
	slow, slowSteps, _ := predict()
	t.Logf("rank 0 computes %.9g s in %d instructions without them, %.9g s in %d with", slow, slowSteps, fast, fastSteps)
	if fewer*fastSteps > slowSteps {
		t.Errorf("%d instructions with the reductions, %d without: want %d times fewer", fastSteps, slowSteps, fewer)
	}
	if math.Abs(fast-slow) > tol*slow {
		t.Errorf("rank 0 computes %.9g s with the reductions, %.9g s without: want within %g", fast, slow, tol)
	}
}

// A loop that appends every row to one slice: the profile's one rank
// reallocates it at a few rows, thousands of times dearer than the others
// once the slice is large; the ranks of four append to their own slices.
// The outer ranks (fewer entries per row) must compute alike, and so must
// the inner ones, whichever rows the one-rank run's copies fell in, as
// they do when the slice is made at its final size first.
func TestAppendReallocationsNotChargedToTheirRows(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	for _, args := range [][]string{nil, {"-prealloc"}} {
		mp, oracle, m := prepareTestdata(t, "appendrows", args)
		run, _, err := simulate(mp, oracle, m, 4, 4, 1, commmodel.Block, args, interpreter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := func(r int) float64 { return run.Ranks[r].Compute }
		for _, pair := range [][2]int{{0, 3}, {1, 2}} {
			a, b := c(pair[0]), c(pair[1])
			if r := max(a, b) / min(a, b); r > 1.25 {
				t.Errorf("%v: ranks %d and %d compute %.4g and %.4g s (%.2f times), want alike", args, pair[0], pair[1], a, b, r)
			}
		}
		if c(1) < 1.5*c(0) {
			t.Errorf("%v: rank 1 computes %.4g s, rank 0 %.4g s, want its longer rows (over 1.5 times)", args, c(1), c(0))
		}
		if args != nil {
			continue // its first touches of the slice's pages may stand out too
		}
		said := false
		for _, n := range oracle.Notes() {
			said = said || strings.Contains(n, "appends to a slice that outlives an iteration")
		}
		if !said {
			t.Errorf("no note on the reallocations:\n%s", strings.Join(oracle.Notes(), "\n"))
		}
	}
}

// A buffer of unknown length (values kept by a test on data) sent at a
// call the profile's runs never reached (the interior ranks' Sendrecv,
// with runs at 1 and 2 ranks) is sized by the same data's Send, which
// they did reach, not priced empty.
func TestUnreachedSendSizedBySameData(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "20000", "-steps", "20"}
	mp, oracle, m := prepareOnIBQDR(t, SpeedupOptions{Dir: "..", Package: "./prediction/testdata/packedchain", Args: args, NP: []int{1},
		ProfilePPN: []int{1, 2}, ProfileOut: filepath.Join(t.TempDir(), "packedchain.profile.json")})
	run, progs, err := simulate(mp, oracle, m, 4, 4, 1, commmodel.Block, args, interpreter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	first, interior := run.Ranks[0].Bytes, run.Ranks[1].Bytes
	if first == 0 || math.Abs(float64(interior-first))/float64(first) > 0.01 {
		t.Errorf("the interior rank sends %d bytes, the first %d: want the same", interior, first)
	}
	said := false
	for _, as := range progs.Assumptions() {
		said = said || strings.Contains(as.What, "mpi.Sendrecv: buffer length unknown and no profiled call here to size it, message size taken as the profiled run's mean at main.go:")
	}
	if !said {
		t.Errorf("no assumption on the Sendrecv's size: %v", progs.Assumptions())
	}
}

// A filter that keeps a set's values in place (keep := s.items[:0]; ...
// keep = append(keep, v) ...; s.items = keep) leaves a slice whose
// length the next loops count over: predicted at 8 times the profile's
// size, the kept count follows the set's, so the interval takes about 8
// times as long, not the profile's count at every step after the first.
func TestFilteredCountFollowsTheSet(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	small, big := []string{"-n", "4000", "-steps", "20"}, []string{"-n", "32000", "-steps", "20"}
	mp, oracle, m := prepareOnIBQDR(t, SpeedupOptions{Dir: "..", Package: "./prediction/testdata/filterkeep", Args: big, ProfileArgs: small, NP: []int{1},
		ProfileOut: filepath.Join(t.TempDir(), "filterkeep.profile.json")})
	at := func(args []string) float64 {
		iv, _ := intervalOn(t, mp, oracle, m, 1, args)
		return iv
	}
	if r := at(big) / at(small); r < 6 || r > 10 {
		t.Errorf("8 times the values take %.2f times as long, want about 8", r)
	}
}

// Two loops that call one kernel too short per call to be timed: each
// loop's time holds its own calls', and the callee's counted iterations
// are those of both call statements. Each loop is charged its share of
// them, so the program takes as long as with the second loop calling a
// copy of the kernel; it was charged half. A kernel whose loop is timed
// on its own (long calls) has its time and its count from both call
// statements: no share is taken of either (heat's jacobiStep, called
// from the step loop and the serial check).
func TestSharedCalleeChargedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	for _, size := range [][]string{{"-n", "10000", "-work", "2000"}, {"-n", "40", "-work", "400000"}} {
		at := func(shared string) float64 {
			args := append(slices.Clone(size), "-shared="+shared)
			mp, oracle, m := prepareTestdata(t, "sharedcallee", args)
			iv, _ := intervalOn(t, mp, oracle, m, 1, args)
			return iv
		}
		if r := at("true") / at("false"); r < 0.75 || r > 1.33 {
			t.Errorf("%v: with the kernel shared the loops take %.2f times as long as with a copy, want about the same", size, r)
		}
	}
}

// A loop run step by step until what it computes is unknown costs the
// iterations left by the profile's time of each: a dear first task, run
// before the loop's sum became unknown, is not counted again in the
// rest. The same tasks with the dear one first or last take as long.
func TestDearFirstIterationCountedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	at := func(heavy string) float64 {
		args := []string{"-n", "20", "-base", "100000", "-heavy", heavy}
		mp, oracle, m := prepareTestdata(t, "dearfirst", args)
		iv, sp := intervalOn(t, mp, oracle, m, 1, args)
		said := false
		for _, as := range sp.Assumptions() {
			said = said || strings.Contains(as.What, "runs step by step for what it computes")
		}
		if !said {
			t.Errorf("-heavy %s: the loop is not run step by step and costed: %v", heavy, sp.Assumptions())
		}
		return iv
	}
	if r := at("0") / at("19"); r < 0.85 || r > 1.18 {
		t.Errorf("the dear task first takes %.2f times as long as last, want about the same", r)
	}
}
