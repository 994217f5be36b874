package profiler

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestInstrumentBuilds(t *testing.T) {
	prog, err := LoadProgram(".", "./testdata/rows")
	if err != nil {
		t.Fatal(err)
	}
	in, err := Instrument(prog, ASTTargets(prog))
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("PROFILER_DUMP") != "" {
		for _, src := range in.Files {
			t.Logf("%s", src)
		}
	}
	dir := t.TempDir()
	if _, err := Build(context.Background(), prog, in, dir, "rows"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "rows")); err != nil {
		t.Fatal(err)
	}
}
