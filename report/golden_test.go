package report

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// checkGolden compares what write produces with testdata/name, after
// checking that a second call produces the same bytes (determinism).
func checkGolden(t *testing.T, name string, write func(io.Writer) error) {
	t.Helper()
	var a, b bytes.Buffer
	if err := write(&a); err != nil {
		t.Fatal(err)
	}
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("%s: two writes of the same report differ", name)
	}
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(path, write); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(a.Bytes(), want) {
		t.Errorf("%s differs from the golden file; got:\n%s", name, a.String())
	}
}
