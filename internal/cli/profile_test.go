package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/profiler"
)

func TestProfileFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no package", []string{"profile"}, "needs one PACKAGE"},
		{"two packages", []string{"profile", "a", "b"}, "needs one PACKAGE"},
		{"bad np", []string{"profile", "--np", "0", "x"}, "--np"},
		{"bad repeat", []string{"profile", "--repeat", "0", "x"}, "--repeat"},
		{"bad ppn", []string{"profile", "--ppn", "1,0", "x"}, "--ppn"},
		{"negative budget", []string{"profile", "--budget", "-1", "x"}, "--budget"},
		{"budget over the run", []string{"profile", "--budget", "2", "x"}, "--budget"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := Main(tc.args, &out, &errb); code != 2 {
				t.Errorf("exit status %d, want 2 (usage); stderr %q", code, errb.String())
			}
			if !strings.Contains(errb.String(), tc.want) {
				t.Errorf("stderr %q does not mention %q", errb.String(), tc.want)
			}
		})
	}
}

// TestProfileCommand profiles the profiler's test program through the
// command and reads the file it wrote.
func TestProfileCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	out := filepath.Join(t.TempDir(), "rows.profile.json")
	var stdout, stderr bytes.Buffer
	args := []string{"profile", "../../profiler/testdata/rows", "-o", out, "--repeat", "1", "--top", "3", "--", "-n", "40"}
	if code := Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr.String())
	}
	for _, want := range []string{"own times", "main.balanced:loop@main.go:+2:2", "profile written to " + out} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("summary does not mention %q:\n%s", want, stdout.String())
		}
	}
	p, err := profiler.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Meta.Args, " "); got != "-n 40" {
		t.Errorf("profile args %q, want -n 40", got)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}
