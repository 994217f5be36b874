package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
)

func TestBenchWritesLoadableMachine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchmarks")
	}
	dir := t.TempDir()
	out, rep := filepath.Join(dir, "m.yaml"), filepath.Join(dir, "r.txt")
	var stdout, stderr bytes.Buffer
	code := Main([]string{"bench", "--out", out, "--report", rep, "--max-launches", "8", "--pairs", "1", "--quiet", "--name", "t", "--ring-sync"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	m, err := commmodel.LoadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "t" || m.Provenance["date"] == "" || m.Provenance["cpu"] == "" {
		t.Errorf("machine lacks name, date or cpu: %+v", m.Provenance)
	}
	text, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range []string{"launches", "valid", "trimmed", "SE (s)", "CI95 (s)", "WaitPatternUp", "WaitPatternNull", "PingPong", "Alltoall"} {
		if !strings.Contains(string(text), col) {
			t.Errorf("report lacks %q", col)
		}
	}
	if stderr.Len() != 0 {
		t.Errorf("--quiet wrote to stderr: %q", stderr.String())
	}
}

func TestBenchFlagErrors(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"bench", "--np", "1"}, &out, &errb); code != 2 {
		t.Errorf("--np 1: exit %d, want 2", code)
	}
}
