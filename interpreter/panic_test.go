package interpreter

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// TestPanicsOnKnownValues runs each case of testdata/panics, where rank
// 1 does what Go panics on: the simulation must fail with the program's
// panic at the line marked want, with Go's message, and the safe case
// (what looks alike but does not panic) must run.
func TestPanicsOnKnownValues(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/panics")
	src, err := os.ReadFile("testdata/panics/main.go")
	if err != nil {
		t.Fatal(err)
	}
	caseRe := regexp.MustCompile(`case "(\w+)":\n[^\n]*// want "([^"]+)"`)
	cases := caseRe.FindAllSubmatch(src, -1)
	if len(cases) < 10 {
		t.Fatalf("found %d cases in testdata/panics", len(cases))
	}
	lines := strings.Split(string(src), "\n")
	for _, c := range append(cases, [][]byte{nil, []byte("safe"), nil}) {
		name, want := string(c[1]), string(c[2])
		t.Run(name, func(t *testing.T) {
			o := &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-6}
			for _, p := range []int{1, 2} {
				sp, err := NewSSAPrograms(prog, pkg, o, p, ExecOptions{Args: []string{"-case", name}})
				if err != nil {
					t.Fatal(err)
				}
				_, err = Simulate(net1, sp.Programs(), Options{})
				if p == 1 || name == "safe" {
					if err != nil {
						t.Errorf("P=%d: %v", p, err)
					}
					continue
				}
				var pe *PanicError
				var re *RankError
				if !errors.As(err, &pe) || !errors.As(err, &re) || re.Rank != 1 {
					t.Fatalf("P=%d: got %v, want rank 1's panic", p, err)
				}
				if !strings.Contains(pe.Msg, want) {
					t.Errorf("message %q, want it to contain %q", pe.Msg, want)
				}
				line := 0
				for i, l := range lines {
					if strings.Contains(l, `case "`+name+`":`) {
						line = i + 2
					}
				}
				if !strings.Contains(pe.Pos, fmt.Sprintf("main.go:%d:", line)) || !strings.HasSuffix(pe.Func, "panics.run") {
					t.Errorf("at %s in %s, want main.go:%d in run", pe.Pos, pe.Func, line)
				}
			}
		})
	}
}

// TestErrorsAreNeverNil: an error made by fmt.Errorf is not nil even when
// its text is unknown, so the program's check of it exits as the real
// one does (before, the check followed the profile, which never saw it).
func TestErrorsAreNeverNil(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/panics")
	o := &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-6}
	sp, err := NewSSAPrograms(prog, pkg, o, 2, ExecOptions{Args: []string{"-case", "exit"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Simulate(net1, sp.Programs(), Options{})
	var re *RankError
	if !errors.As(err, &re) || re.Rank != 1 || !strings.Contains(err.Error(), "the program calls os.Exit(3); it printed before: too many ranks: 2") {
		t.Fatalf("got %v, want rank 1's os.Exit(3)", err)
	}
}

// TestGoSemantics runs testdata/semantics, which checks values computed
// with many of Go's constructs against what Go gives (it runs for real
// without a failed check): a value the interpreter computes wrongly but
// believes known fails a check, whose panic names it. Branches on
// unknown values never take a check's panic arm.
func TestGoSemantics(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/semantics")
	// No branch frequencies: a check on a value the interpreter does not
	// know fails the test too.
	o := &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-6}
	sp, err := NewSSAPrograms(prog, pkg, o, 1, ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Simulate(net1, sp.Programs(), Options{}); err != nil {
		t.Fatal(err)
	}
	for _, a := range sp.Assumptions() {
		t.Logf("assumed at %s: %s", a.Pos, a.What)
	}
}

// TestFlagKinds: every kind of flag parses as package flag does, those
// whose value the program's own code takes (Func, Var) included, so that
// giving one does not stop the prediction.
func TestFlagKinds(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/flags")
	o := &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-6}
	args := []string{"-n", "5", "-u", "1099511627776", "-d", "1.5s", "-w", "7", "-name", "a", "-mode", "slow", "input"}
	sp, err := NewSSAPrograms(prog, pkg, o, 1, ExecOptions{Args: args})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Simulate(net1, sp.Programs(), Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestReturnBeforeRanks: a main that returns before mpi.Main with the
// given arguments is noted at main, and only then.
func TestReturnBeforeRanks(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/dryrun")
	for _, tc := range []struct {
		args []string
		note bool
	}{{[]string{"-dry"}, true}, {nil, false}} {
		o := &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-6}
		sp, err := NewSSAPrograms(prog, pkg, o, 2, ExecOptions{Args: tc.args})
		if err != nil {
			t.Fatal(err)
		}
		run, err := Simulate(net1, sp.Programs(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		noted := false
		for _, a := range sp.Assumptions() {
			if strings.Contains(a.What, "main returned without starting the ranks") {
				noted = strings.HasSuffix(a.Pos, "main.go:12:6")
			}
		}
		if noted != tc.note || (run.Ops > 0) == tc.note {
			t.Errorf("%v: noted at main %v, %d operations; assumptions %v", tc.args, noted, run.Ops, sp.Assumptions())
		}
	}
}

// TestUnsupportedConstructs runs each case of testdata/unsupported: the
// simulation must stop at the line marked want, naming the construct and
// what to do instead.
func TestUnsupportedConstructs(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/unsupported")
	src, err := os.ReadFile("testdata/unsupported/main.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	for _, name := range []string{"go", "chan", "select", "wg"} {
		t.Run(name, func(t *testing.T) {
			line, want := 0, ""
			for i, l := range lines {
				if strings.Contains(l, `case "`+name+`":`) {
					for j := i + 1; j < len(lines) && line == 0; j++ {
						if k := strings.Index(lines[j], `// want "`); k >= 0 {
							line, want = j+1, strings.TrimSuffix(lines[j][k+len(`// want "`):], `"`)
						}
					}
				}
			}
			o := &testOracle{user: pkg.Pkg.Path(), perBlock: 1e-6}
			sp, err := NewSSAPrograms(prog, pkg, o, 2, ExecOptions{Args: []string{"-case", name}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = Simulate(net1, sp.Programs(), Options{})
			var re *RankError
			if !errors.As(err, &re) {
				t.Fatalf("got %v, want a rank's error", err)
			}
			msg := err.Error()
			for _, s := range []string{"unsupported construct", want, fmt.Sprintf("main.go:%d:", line), "do their work in the rank's code"} {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q does not say %q", msg, s)
				}
			}
		})
	}
}

// TestDeferredMPICalls runs testdata/defermpi, whose MPI calls are
// deferred: the interval ended by a defer must be marked, the deferred
// Barrier of each of three steps and the Allreduce of the deferred
// function must be simulated, in Go's order (the Barriers before the
// Allreduce, the interval's end last).
func TestDeferredMPICalls(t *testing.T) {
	run, _ := simulateTestdata(t, "./testdata/defermpi", 2)
	iv, ok := run.Interval(1)
	if !ok || !(iv > 0) {
		t.Fatalf("interval 1: %g, %v; want it marked by the deferred EndInterval", iv, ok)
	}
	if want := int64(2 * (3 + 1)); run.Ops != want {
		t.Errorf("%d operations, want %d: per rank 3 Barriers and the Allreduce (interval marks are no operations)", run.Ops, want)
	}
	if iv < run.Makespan*0.99 {
		t.Errorf("interval %g s of a run of %g s: the deferred calls ran after its end", iv, run.Makespan)
	}
}

// TestPollingOverlapsWork runs testdata/testpoll: rank 0 polls its
// receive with Test while rank 1 computes before it sends. Each poll that
// finds the receive unfinished must let rank 0 go on (many polls, little
// time waiting), and the last must find it done, after which Wait on the
// request returns at once; simulated as Wait, rank 0 polled once and
// waited all along, and its Wait found no request.
func TestPollingOverlapsWork(t *testing.T) {
	run, _ := simulateTestdata(t, "./testdata/testpoll", 2)
	r0, r1 := run.Ranks[0], run.Ranks[1]
	if r0.Ops < 100 {
		t.Errorf("rank 0 made %d operations, want its Irecv and a Test per poll while rank 1 computes (%.3g s)", r0.Ops, r1.Compute)
	}
	if r0.Wait > 0.1*r1.Compute {
		t.Errorf("rank 0 waited %.3g s of rank 1's %.3g s of compute: its polls did not go on", r0.Wait, r1.Compute)
	}
	if r0.Finish < r1.Compute {
		t.Errorf("rank 0 finished at %.3g s, before rank 1 sent at %.3g s", r0.Finish, r1.Compute)
	}
}

// TestPollingWithoutWorkEnds: polls that cost nothing (no time passes
// between them) must not spin at one instant; the second waits.
func TestPollingWithoutWorkEnds(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/testpoll")
	// A low step limit: polls that spun would stop it rather than run on.
	sp, err := NewSSAPrograms(prog, pkg, &testOracle{user: pkg.Pkg.Path()}, 2, ExecOptions{MaxSteps: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	run, err := Simulate(net1, sp.Programs(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ops := run.Ranks[0].Ops; ops > 3 {
		t.Errorf("rank 0 made %d operations: its polls spun at one instant", ops)
	}
}

// TestPollingManyRequests: a master that tests its workers' requests in
// turn, nothing costing time between the tests, must not spin at one
// instant (it did, until the step limit stopped it, when only a repeated
// Test of one request waited); it waits for the first to complete.
func TestPollingManyRequests(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/pollmany")
	for _, p := range []int{2, 4, 8} {
		sp, err := NewSSAPrograms(prog, pkg, &testOracle{user: pkg.Pkg.Path()}, p, ExecOptions{MaxSteps: 1e6})
		if err != nil {
			t.Fatal(err)
		}
		run, err := Simulate(net1, sp.Programs(), Options{})
		if err != nil {
			t.Fatalf("P = %d: %v", p, err)
		}
		// Its Irecvs, and at most a round of Tests per completion.
		if ops, most := run.Ranks[0].Ops, (p-1)+(p-1)*p; ops > most {
			t.Errorf("P = %d: rank 0 made %d operations, more than %d: its polls spun", p, ops, most)
		}
	}
}

// TestSlowRanksAreTold: ExecOptions.Slow hears once per rank, after
// SlowAfter instructions, in which function the rank is.
func TestSlowRanksAreTold(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/pollmany")
	type call struct {
		rank  int
		steps int64
		fn    string
	}
	var calls []call
	opts := ExecOptions{SlowAfter: 500, Slow: func(rank int, steps int64, in *ssa.Function) {
		calls = append(calls, call{rank, steps, in.Name()})
	}}
	sp, err := NewSSAPrograms(prog, pkg, &testOracle{user: pkg.Pkg.Path()}, 3, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Simulate(net1, sp.Programs(), Options{}); err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, c := range calls {
		if seen[c.rank] {
			t.Errorf("rank %d told twice: %v", c.rank, calls)
		}
		seen[c.rank] = true
		if c.steps != 501 || c.fn != "main$1" {
			t.Errorf("rank %d told at %d steps in %s, want 501 in main$1 (its loop)", c.rank, c.steps, c.fn)
		}
	}
	if !seen[1] || !seen[2] {
		t.Errorf("the workers (2000 and 4000 iterations) were not told: %v", calls)
	}
}

// TestFindUnsupported lists the goroutine and channel operations main of
// testdata/unsupported may reach, in source order, before any
// simulation: its closure's go, make(chan), send, receives and select,
// not the go statement of a function nothing calls.
func TestFindUnsupported(t *testing.T) {
	_, pkg := loadSSA(t, "./testdata/unsupported")
	var got []string
	for _, u := range FindUnsupported(pkg, []*ssa.Package{pkg}) {
		got = append(got, fmt.Sprintf("%d %s main.%s", u.Pos.Line, u.What, u.Fn.Name()))
	}
	want := []string{
		"22 go statement main.main$1",
		"25 make(chan) main.main$1",
		"26 channel send or select main.main$1",
		"27 channel receive main.main$1",
		"30 channel send or select main.main$1",
		"38 goroutine started by (*sync.WaitGroup).Go main.main$1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
