package examples_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/parpredict/parpredict/internal/timinglock"
	"github.com/parpredict/parpredict/mpi"
)

// programs are the example programs, one directory each.
var programs = []string{"matmul", "heat", "transpose", "mandelbrot", "cg", "pingpong"}

// binDir holds the programs, built once by TestMain.
var binDir string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	// Building and running every example takes the cores: never beside
	// the timing tests (internal/timinglock).
	release, err := timinglock.AcquireShared()
	if err != nil {
		fmt.Fprintln(os.Stderr, "examples_test:", err)
		return 1
	}
	defer release()
	dir, err := os.MkdirTemp("", "parpredict-examples-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "examples_test:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	args := []string{"build", "-o", dir + string(filepath.Separator)}
	for _, p := range programs {
		args = append(args, "./"+p)
	}
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "examples_test: go %s: %v\n%s", strings.Join(args, " "), err, out)
		return 1
	}
	binDir = dir
	return m.Run()
}

// runResult is the outcome of one run of a program.
type runResult struct {
	stdout, stderr string
	code           int
}

// runProgram runs a built program with args; a run that does not finish
// within a minute fails the test (a hang is a bug).
func runProgram(t *testing.T, prog string, args ...string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, prog), args...)
	cmd.Env = append(os.Environ(), mpi.EnvNP+"=", mpi.EnvTrace+"=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %s: did not finish within a minute", prog, strings.Join(args, " "))
	}
	res := runResult{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", prog, strings.Join(args, " "), err)
	}
	return res
}

var elapsedLine = regexp.MustCompile(`^elapsed: [0-9]+\.[0-9]+ s$`)

// TestRuns runs every program on small inputs with 1, 3 and 4 ranks (3
// does not divide the sizes) and checks that it succeeds, that its own
// check ran, and that its last line is the elapsed time.
func TestRuns(t *testing.T) {
	cases := []struct {
		name string
		prog string
		args []string
		want []string // substrings of stdout
	}{
		{"matmul", "matmul", []string{"-n", "37"}, []string{"matmul: n=37", "check: C equals the serial product"}},
		{"heat/steps", "heat", []string{"-n", "23", "-steps", "40"}, []string{"steps=40", "check: field equals the serial Jacobi field after 40 steps"}},
		{"heat/converge", "heat", []string{"-n", "23", "-tol", "1e-3"}, []string{"heat: n=23", "check: field equals the serial Jacobi field"}},
		{"transpose", "transpose", []string{"-n", "37", "-reps", "3"}, []string{"reps=3", "check: result equals 3 serial transposes"}},
		{"mandelbrot/block", "mandelbrot", []string{"-width", "40", "-height", "29", "-maxiter", "100", "-dist", "block"}, []string{"dist=block", "check: image equals the serial computation"}},
		{"mandelbrot/cyclic", "mandelbrot", []string{"-width", "40", "-height", "29", "-maxiter", "100", "-dist", "cyclic"}, []string{"dist=cyclic", "check: image equals the serial computation"}},
		{"cg", "cg", []string{"-n", "29"}, []string{"cg: n=29", "check: |b - A x|"}},
		{"pingpong", "pingpong", []string{"-max", "1024", "-reps", "5"}, nil},
	}
	for _, tc := range cases {
		for _, np := range []int{1, 3, 4} {
			t.Run(fmt.Sprintf("%s/np%d", tc.name, np), func(t *testing.T) {
				t.Parallel()
				args := append([]string{"-np", fmt.Sprint(np)}, tc.args...)
				res := runProgram(t, tc.prog, args...)
				if res.code != 0 {
					t.Fatalf("%s %s: exit status %d\nstdout:\n%s\nstderr:\n%s", tc.prog, strings.Join(args, " "), res.code, res.stdout, res.stderr)
				}
				want := tc.want
				if tc.prog == "pingpong" {
					want = []string{"check: every message arrived intact", "        1024 "}
					if np == 1 {
						want = []string{"pingpong: needs at least 2 ranks"}
					}
				}
				for _, w := range want {
					if !strings.Contains(res.stdout, w) {
						t.Errorf("stdout lacks %q:\n%s", w, res.stdout)
					}
				}
				if strings.Contains(res.stdout, "not converged") {
					t.Errorf("did not converge:\n%s", res.stdout)
				}
				lines := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n")
				if last := lines[len(lines)-1]; !elapsedLine.MatchString(last) {
					t.Errorf("last line %q, want \"elapsed: <seconds> s\"", last)
				}
			})
		}
	}
}

// TestBadInput checks that nonsensical arguments stop a program with exit
// status 2 and a message that names the problem, before any output.
func TestBadInput(t *testing.T) {
	cases := []struct {
		prog string
		args []string
		want string // substring of stderr
	}{
		{"matmul", []string{"-n", "0"}, "matmul: -n must be at least 1, got 0"},
		{"matmul", []string{"-n", "-5"}, "matmul: -n must be at least 1, got -5"},
		{"heat", []string{"-n", "-5"}, "heat: -n must be at least 3"},
		{"heat", []string{"-n", "3"}, "heat: -n 3 gives 1 interior rows, fewer than the 2 ranks"},
		{"heat", []string{"-tol", "-1"}, "heat: -tol must be a non-negative number"},
		{"transpose", []string{"-n", "0"}, "transpose: -n must be at least 1, got 0"},
		{"transpose", []string{"-reps", "0"}, "transpose: -reps must be at least 1, got 0"},
		{"mandelbrot", []string{"-width", "0"}, "mandelbrot: -width and -height must be at least 1"},
		{"mandelbrot", []string{"-dist", "spiral"}, `mandelbrot: -dist must be block or cyclic, got "spiral"`},
		{"cg", []string{"-n", "-5"}, "cg: -n must be at least 1, got -5"},
		{"cg", []string{"-n", "1"}, "cg: -n 1 gives 1 grid rows, fewer than the 2 ranks"},
		{"cg", []string{"-tol", "0"}, "cg: -tol must be a positive number"},
		{"pingpong", []string{"-max", "0"}, "pingpong: -max (0) must be at least -min (1)"},
	}
	for _, tc := range cases {
		t.Run(tc.prog+strings.Join(tc.args, ""), func(t *testing.T) {
			t.Parallel()
			args := append([]string{"-np", "2"}, tc.args...)
			res := runProgram(t, tc.prog, args...)
			if res.code != 2 {
				t.Errorf("exit status %d, want 2", res.code)
			}
			if !strings.Contains(res.stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, res.stderr)
			}
			if strings.Contains(res.stdout, "elapsed:") {
				t.Errorf("stdout has an elapsed line:\n%s", res.stdout)
			}
		})
	}
}

// TestIntervals checks that every program marks its main loop as interval
// 1 on every rank, which parpredict's trace reader relies on.
func TestIntervals(t *testing.T) {
	args := map[string][]string{
		"matmul":     {"-n", "20"},
		"heat":       {"-n", "12", "-steps", "5"},
		"transpose":  {"-n", "20", "-reps", "2"},
		"mandelbrot": {"-width", "20", "-height", "20", "-maxiter", "50"},
		"cg":         {"-n", "12"},
		"pingpong":   {"-max", "64", "-reps", "2"},
	}
	for _, prog := range programs {
		t.Run(prog, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "trace.json")
			res := runProgram(t, prog, append([]string{"-np", "3", "-mpitrace", path}, args[prog]...)...)
			if res.code != 0 {
				t.Fatalf("exit status %d\nstderr:\n%s", res.code, res.stderr)
			}
			tr, err := mpi.ReadTrace(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, rk := range tr.Ranks {
				var begin, end int
				for _, e := range rk.Events {
					switch {
					case e.Op == "BeginInterval" && e.ID == 1:
						begin++
					case e.Op == "EndInterval" && e.ID == 1:
						end++
					}
				}
				if begin != 1 || end != 1 {
					t.Errorf("rank %d: %d BeginInterval(1) and %d EndInterval(1), want one each", rk.Rank, begin, end)
				}
			}
		})
	}
}
