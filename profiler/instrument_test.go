package profiler

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/profiler/probe"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestInstrumentGolden pins the instrumented text of the tricky program,
// as the counting binary has it and as a timing binary (every target
// timed) has it.
func TestInstrumentGolden(t *testing.T) {
	prog, err := LoadProgram(".", "./testdata/tricky")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		golden string
		timing bool
	}{{"tricky.instrumented.golden", false}, {"tricky.timing.golden", true}} {
		in, err := Instrument(prog, ASTTargets(prog), InstrOptions{VecLoops: allIDs(ASTTargets(prog)), Timing: tc.timing})
		if err != nil {
			t.Fatal(err)
		}
		src := in.Files[prog.Main.CompiledGoFiles[0]]
		golden := filepath.Join("testdata", tc.golden)
		if *update {
			if err := os.WriteFile(golden, src, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(src, want) {
			t.Errorf("instrumented text differs from %s (run go test -update to accept):\n%s", golden, src)
		}
		orig, err := os.ReadFile(prog.Main.CompiledGoFiles[0])
		if err != nil {
			t.Fatal(err)
		}
		if got, want := bytes.Count(src, []byte("\n")), bytes.Count(orig, []byte("\n")); got != want+4 {
			// four lines appended at the end (var _ = os.Exit, var _ = mpi.Main)
			t.Errorf("%s: instrumented file has %d lines, want the original %d plus 4: probes must not move lines", tc.golden, got, want)
		}
	}
}

// TestInstrumentedBehaves runs the tricky program instrumented, with
// probes off, counting and all timed, and compares its output with the
// plain program's.
func TestInstrumentedBehaves(t *testing.T) {
	prog, err := LoadProgram(".", "./testdata/tricky")
	if err != nil {
		t.Fatal(err)
	}
	in, err := Instrument(prog, ASTTargets(prog), InstrOptions{VecLoops: allIDs(ASTTargets(prog))})
	if err != nil {
		t.Fatal(err)
	}
	tin, err := Instrument(prog, ASTTargets(prog), InstrOptions{VecLoops: allIDs(ASTTargets(prog)), Timing: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx := context.Background()
	plain, err := Build(ctx, prog, nil, dir, "plain")
	if err != nil {
		t.Fatal(err)
	}
	bin, err := Build(ctx, prog, in, dir, "instrumented")
	if err != nil {
		t.Fatal(err)
	}
	timing, err := Build(ctx, prog, tin, dir, "timing")
	if err != nil {
		t.Fatal(err)
	}
	want := runBin(t, plain, nil)
	n := len(in.Regions) + 1
	for _, tc := range []struct {
		name string
		bin  string
		env  []string
	}{
		{"off", bin, nil},
		{"counting", bin, []string{probe.EnvN + "=" + itoa(n)}},
		{"timed", bin, []string{probe.EnvN + "=" + itoa(n), probe.EnvTimed + "=all", probe.EnvVec + "=all"}},
		{"timing binary", timing, []string{probe.EnvN + "=" + itoa(len(tin.Regions)+1), probe.EnvTimed + "=all", probe.EnvVec + "=all"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".json")
			env := append(tc.env, probe.EnvOut+"="+out)
			if got := runBin(t, tc.bin, env); got != want {
				t.Errorf("instrumented output %q, plain %q", got, want)
			}
			if tc.env != nil {
				if _, err := os.Stat(out); err != nil {
					t.Errorf("no counters written: %v", err)
				}
			}
		})
	}
}

func runBin(t *testing.T, bin string, env []string) string {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, out)
	}
	return strings.TrimSpace(string(out))
}

func itoa(n int) string { return strconv.Itoa(n) }

// allIDs asks for per-iteration probes on every eligible loop.
func allIDs(ts []Target) map[string]bool {
	ids := map[string]bool{}
	for _, t := range ts {
		ids[t.ID] = true
	}
	return ids
}
