// Package testmod makes throw-away modules for tests: a program copied
// into a temporary directory with a go.mod of its own that requires
// parpredict through a replace, as a user's program outside this module
// would.
package testmod

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Copy copies the Go files of src into a new module example.com/name in a
// temporary directory and returns it. root is this repository's root.
func Copy(t testing.TB, root, src, name string) string {
	t.Helper()
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in %s: %v", src, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mod := "module example.com/" + name + "\n\ngo 1.26\n\nrequire github.com/parpredict/parpredict v0.0.0\n\nreplace github.com/parpredict/parpredict => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = dir
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	return dir
}
