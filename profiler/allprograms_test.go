package profiler

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEveryProgramInstruments instruments every program of the
// repository (examples and test inputs), as the counting and as the
// timing binary (every target timed), and compiles them: the probes'
// text must be valid Go for every shape of code we have. LoadFiles must
// find the packages and files LoadProgram does (the staleness check of a
// profile relies on it).
func TestEveryProgramInstruments(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every program of the repository twice")
	}
	var dirs []string
	for _, glob := range []string{"../examples/*", "../*/testdata/*", "../commmodel/*/testdata/*"} {
		matches, _ := filepath.Glob(glob)
		for _, d := range matches {
			if src, _ := filepath.Glob(filepath.Join(d, "*.go")); len(src) > 0 && isMain(src[0]) {
				dirs = append(dirs, "./"+strings.TrimPrefix(filepath.ToSlash(d), "../"))
			}
		}
	}
	if len(dirs) < 40 {
		t.Fatalf("found %d programs: %v", len(dirs), dirs)
	}
	variants := []*Instrumented{{Files: map[string][]byte{}}, {Files: map[string][]byte{}}} // counting, timing
	for _, d := range dirs {
		prog, err := LoadProgram("..", d)
		if err != nil {
			continue // a program that does not compile on purpose
		}
		checkSameFiles(t, d, prog)
		ts, err := ModelTargets(prog)
		if err != nil {
			ts = ASTTargets(prog)
		}
		for i, all := range variants {
			in, err := Instrument(prog, ts, InstrOptions{Timing: i == 1})
			if err != nil {
				t.Fatalf("%s: %v", d, err)
			}
			for p, src := range in.Files {
				all.Files[p] = src
			}
		}
	}
	for i, all := range variants {
		overlay, err := writeOverlay(all, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(context.Background(), "go", append([]string{"build", "-overlay", overlay}, dirs...)...)
		cmd.Dir = ".."
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Errorf("%s binaries: the instrumented programs do not build: %v\n%s", []string{"counting", "timing"}[i], err, out.String())
		}
	}
}

// isMain reports whether the Go file at path is in package main.
func isMain(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && (bytes.Contains(data, []byte("\npackage main\n")) || bytes.HasPrefix(data, []byte("package main\n")))
}

// checkSameFiles checks that LoadFiles finds the analysed packages, their
// files and directory as LoadProgram did for prog.
func checkSameFiles(t *testing.T, dir string, prog *Program) {
	t.Helper()
	light, err := LoadFiles("..", dir)
	if err != nil {
		t.Errorf("%s: LoadFiles: %v", dir, err)
		return
	}
	files := func(p *Program) []string {
		var out []string
		for _, pkg := range p.Packages {
			out = append(out, pkg.PkgPath)
			out = append(out, pkg.GoFiles...)
		}
		return append(out, p.Dir, moduleRoot(p))
	}
	if got, want := files(light), files(prog); !slices.Equal(got, want) {
		t.Errorf("%s: LoadFiles found %q, LoadProgram %q", dir, got, want)
	}
}

// TestLoadProgramErrors: a path that names nothing says so and what to
// give; a program that does not compile says it does not build, with the
// compiler's position.
func TestLoadProgramErrors(t *testing.T) {
	_, err := LoadProgram("..", "./no/such/dir")
	if err == nil || !strings.Contains(err.Error(), "names no package") || !strings.Contains(err.Error(), "give the directory") || strings.Contains(err.Error(), "-: ") {
		t.Errorf("a missing directory: %v", err)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":  "module example.com/bad\n\ngo 1.26\n",
		"main.go": "package main\n\nfunc main() {\n\tundefinedName()\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err = LoadProgram(dir, ".")
	if err == nil || !strings.Contains(err.Error(), "does not build") || !strings.Contains(err.Error(), "main.go:4:2") {
		t.Errorf("a program that does not compile: %v", err)
	}
}
