package prediction

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
	"golang.org/x/tools/go/ssa"
)

// TestUnprofiledEarlyReturn predicts pingpong at 2 ranks from a profile
// made with 1, which never exchanged: its check loop's early return (a
// corrupted byte) has no profile data. Taken half the time it would
// report corruption and Abort; an arm that returns from inside a loop is
// assumed not taken, and noted.
func TestUnprofiledEarlyReturn(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-reps", "2", "-max", "4096"}
	opts := SpeedupOptions{Dir: "..", Package: "./examples/pingpong", Args: args, NP: []int{1},
		ProfileOut: filepath.Join(t.TempDir(), "pingpong.profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	if oracle.prof.Meta.NP != 1 {
		t.Fatalf("profiled with %d ranks, want 1", oracle.prof.Meta.NP)
	}
	if _, _, err := simulate(mp, oracle, m, 2, 1, 2, commmodel.Block, args, interpreter.Options{}); err != nil {
		t.Fatalf("P=2 from a one-rank profile: %v", err)
	}
	if notes := strings.Join(oracle.Notes(), "\n"); !strings.Contains(notes, "returns from inside main.verify:loop") {
		t.Errorf("no note on the assumed early return:\n%s", notes)
	}
}

// TestBranchTestsFollowTheProfile profiles branchtests, whose branches
// test a value the interpreter cannot know, and checks each If's
// probability against the program's known shares: an if the model holds
// in no if region (its arm continues the loop), the clauses of a switch
// without a tag, both parts of a compound condition, and the case values
// of a switch with a tag (from its clauses' counts). Before branch
// tests were counted, each of these but the compound's first part was
// taken half the time, and that part took the whole condition's share.
// The simulation must then make the real run's MPI calls: per ten steps
// two Barriers (continue), two Allreduces and one step of two Barriers
// (switch), three Barriers (compound), two Allreduces (tagged switch).
func TestBranchTestsFollowTheProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-steps", "100"}
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/branchtests", Args: args, NP: []int{1},
		ProfileOut: filepath.Join(t.TempDir(), "branchtests.profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	want := map[string]float64{ // the condition's text: share of true
		"x < 0.2":  0.2,
		"x < 0.7":  5.0 / 8, // of the 8 steps in 10 that did not continue
		"x < 0.9":  2.0 / 3,
		"x >= 0.3": 7.0 / 8,
		"x < 0.6":  3.0 / 7,
		// int(10 x) % 4 over those 8 steps: 3, 2, 1, 2, 1, 0, 0, 3;
		// case 0, 1 matches 4 of 8 on either of two tests, case 2 2 of 4
		"x == 0": 1 - math.Sqrt(0.5),
		"x == 1": 1 - math.Sqrt(0.5),
		"x == 2": 0.5,
		// heavy := x > 0.75 && x < 0.95: 0.8 and 0.9 of those 8
		"x > 0.75": 2.0 / 8,
	}
	got := map[string]float64{}
	for _, f := range mp.Funcs {
		if f.Name != "main.main$1" {
			continue
		}
		for _, b := range f.SSA.Blocks {
			br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			bin, ok := br.Cond.(*ssa.BinOp)
			if !ok {
				continue
			}
			k, ok := bin.Y.(*ssa.Const)
			if !ok {
				continue
			}
			text := fmt.Sprintf("x %s %s", bin.Op, k.Value)
			if _, ok := want[text]; ok {
				got[text], _ = oracle.BranchTaken(b)
			}
		}
	}
	for text, p := range want {
		if g, ok := got[text]; !ok || math.Abs(g-p) > 1e-9 {
			t.Errorf("if %s: taken with probability %v (found %v), want %v", text, g, ok, p)
		}
	}
	if notes := strings.Join(oracle.Notes(), "\n"); strings.Contains(notes, "without profile data") {
		t.Errorf("branches without profile data:\n%s", notes)
	}
	run, _, err := simulate(mp, oracle, m, 1, 1, 1, commmodel.Block, args, interpreter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(100 / 10 * (2 + 2 + 2 + 3 + 2)); run.Ops < want || run.Ops > want+2 {
		t.Errorf("%d MPI operations simulated, want %d and the run's start and end", run.Ops, want)
	}
}

// TestCompoundBreakLoopIsCounted predicts compoundbreak at -maxit 50 and
// 100 from a profile at 50: its `for {}` leaves by `out[0] < tol || it >=
// maxit`, and the structure folds the code after the loop into the
// loop's region. The loop must still be the for statement's, so that the
// profiler counts its exit tests and the known one ends it: 50 and 100
// Allreduces. When the region took the function's body for its statement,
// the loop had no counts and left at one half per test (about 2
// iterations).
func TestCompoundBreakLoopIsCounted(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := func(maxit int) []string { return []string{"-maxit", fmt.Sprint(maxit)} }
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/compoundbreak", Args: args(50), NP: []int{1},
		ProfileOut: filepath.Join(t.TempDir(), "compoundbreak.profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	for _, maxit := range []int{50, 100} {
		oracle.SetArgs(args(maxit))
		run, _, err := simulate(mp, oracle, m, 2, 1, 2, commmodel.Block, args(maxit), interpreter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if perRank := run.Ops / 2; perRank < int64(maxit) || perRank > int64(maxit)+2 {
			t.Errorf("-maxit %d: %d MPI operations per rank, want %d Allreduces and the run's start and end", maxit, perRank, maxit)
		}
	}
}

// TestUnknownMessageSizesFromProfile predicts redistribute at 2 ranks on
// two nodes from a profile made with one: its Alltoallv's buffers are
// built from data the interpreter cannot know, so their lengths are
// unknown; the message takes the profiled run's mean payload at that call
// (each rank's 20,000 particles, 160,000 bytes, half of them to the other
// rank at 2 ranks). Before, it was taken as 0 bytes.
func TestUnknownMessageSizesFromProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "20000", "-steps", "2"}
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/redistribute", Args: args, NP: []int{1},
		ProfileOut: filepath.Join(t.TempDir(), "redistribute.profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	run, _, err := simulate(mp, oracle, m, 2, 2, 1, commmodel.Block, args, interpreter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Two steps of half of 160,000 bytes to the other rank.
	if got, want := run.Ranks[0].Bytes, 2*160000/2; got < want*9/10 {
		t.Errorf("rank 0 sent %d bytes, want about %d", got, want)
	}
}
