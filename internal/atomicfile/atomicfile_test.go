package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteReplacesWholeFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := os.WriteFile(path, []byte("old content, longer than the new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "new" {
		t.Fatalf("content %q, %v", got, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestWriteFuncFailureKeepsOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	if err := os.WriteFile(path, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := WriteFunc(path, func(w io.Writer) error { io.WriteString(w, "half"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "keep" {
		t.Errorf("file changed to %q", got)
	}
}

func TestWriteIntoMissingDirectoryFails(t *testing.T) {
	if err := Write(filepath.Join(t.TempDir(), "no", "such", "dir", "f"), []byte("x")); err == nil {
		t.Error("write into a missing directory succeeded")
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	if err := CheckWritable(filepath.Join(dir, "out.json")); err != nil {
		t.Errorf("a new file in an existing directory: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the check left files: %v", entries)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ path, want string }{
		{filepath.Join(dir, "no", "out.json"), "directory " + filepath.Join(dir, "no") + " does not exist"},
		{filepath.Join(file, "out.json"), file + " is not a directory"},
		{dir, dir + " is a directory"},
	} {
		err := CheckWritable(tt.path)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckWritable(%s) = %v, want %q", tt.path, err, tt.want)
		}
	}
}

// A failed write names the directory it could not write in, not the
// temporary file's name.
func TestWriteErrorNamesTheDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing")
	err := Write(filepath.Join(dir, "f.json"), []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "create a file in "+dir+":") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("error %v, want one naming %s", err, dir)
	}
}
