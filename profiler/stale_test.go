package profiler

import (
	"strings"
	"testing"
)

// TestStaleErrorMessages: a profile that differs only in its arguments
// says which it was made with and which are asked for (OnlyArgs, which
// predict speedup turns into a --profile-args hint); with a changed file
// as well, both are named.
func TestStaleErrorMessages(t *testing.T) {
	args := &StaleError{Profile: "p.json", Args: []string{}, Made: []string{"-n", "8"}, Rerun: "predict profile x"}
	if !args.OnlyArgs() || args.Error() != `profiler: profile p.json was made with the program arguments ["-n" "8"], not []; run: predict profile x` {
		t.Errorf("arguments only: %v (OnlyArgs %v)", args, args.OnlyArgs())
	}
	both := &StaleError{Profile: "p.json", Changed: []string{"main.go"}, Args: []string{"-n", "9"}, Made: []string{"-n", "8"}, Rerun: "predict profile x"}
	want := `profiler: profile p.json is stale: main.go changed since it was made, and it was made with the program arguments ["-n" "8"], not ["-n" "9"]; run: predict profile x`
	if both.OnlyArgs() || both.Error() != want {
		t.Errorf("file and arguments: %v (OnlyArgs %v)\nwant %s", both, both.OnlyArgs(), want)
	}
	if !strings.Contains((&StaleError{Go: "go1.99", Rerun: "r"}).Error(), "the profile is stale: Go is now go1.99 since it was made") {
		t.Error("Go version")
	}
}

// TestRerunWritesTheRefusedFile: the command a stale profile's error
// suggests writes the file that was refused (-o), quoted for a shell
// where it needs to be.
func TestRerunWritesTheRefusedFile(t *testing.T) {
	for path, want := range map[string]string{
		"/tmp/N-histo.profile.json": "/tmp/N-histo.profile.json",
		"my profiles/a.json":        `'my profiles/a.json'`,
		"it's.json":                 `'it'\''s.json'`,
	} {
		if got := shellWord(path); got != want {
			t.Errorf("shellWord(%q) = %s, want %s", path, got, want)
		}
	}
}
