package report

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "one\n"); return err }); err != nil {
		t.Fatal(err)
	}
	// A failing writer leaves the previous file in place and no temporary.
	boom := errors.New("boom")
	if err := WriteFile(path, func(w io.Writer) error { io.WriteString(w, "partial"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "one\n" {
		t.Errorf("file holds %q (%v), want the first content", data, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries, want 1", len(entries))
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x"), func(io.Writer) error { return nil }); err == nil {
		t.Error("writing into a missing directory: no error")
	}
}
