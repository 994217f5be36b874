package model

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// load loads one testdata package, failing the test on error.
func load(t *testing.T, dir string) *Program {
	t.Helper()
	p, err := Load(Config{Dir: dir}, ".")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGolden prints the control trees of the testdata packages and compares
// them with testdata/<name>.golden; every tree must pass the sanity check.
func TestGolden(t *testing.T) {
	for _, name := range []string{"kinds", "spmd"} {
		t.Run(name, func(t *testing.T) {
			p := load(t, filepath.Join("testdata", "src", name))
			var buf bytes.Buffer
			for _, f := range p.Funcs {
				if err := f.Check(); err != nil {
					t.Error(err)
				}
				if err := WriteTree(&buf, f); err != nil {
					t.Fatal(err)
				}
			}
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got := buf.String(); got != string(want) {
				t.Errorf("trees differ from %s (go test -update rewrites it); got:\n%s", golden, got)
			}
		})
	}
}

// TestKinds checks that the kinds testdata yields every region kind where
// its function names say.
func TestKinds(t *testing.T) {
	p := load(t, filepath.Join("testdata", "src", "kinds"))
	tests := []struct {
		fn   string
		kind Kind
	}{
		{"kinds.Sequence", Basic},
		{"kinds.IfThen", Block},
		{"kinds.IfThen", IfThen},
		{"kinds.IfThenElse", IfThenElse},
		{"kinds.Switch", Case},
		{"kinds.Select", Case},
		{"kinds.Proper", Proper},
		{"kinds.SelfLoop", SelfLoop},
		{"kinds.While", WhileLoop},
		{"kinds.NaturalLoop", NaturalLoop},
		{"kinds.Labeled", NaturalLoop},
		{"kinds.Improper", Improper},
	}
	for _, tt := range tests {
		f := p.Func(tt.fn)
		if f == nil {
			t.Errorf("no function %s", tt.fn)
			continue
		}
		found := false
		f.Walk(func(r *Region) { found = found || r.Kind == tt.kind })
		if !found {
			t.Errorf("%s: no %s region", tt.fn, tt.kind)
		}
	}
}

// TestLoopSyntax checks that loop regions map to their for/range
// statements and expose header, back edges and exits.
func TestLoopSyntax(t *testing.T) {
	p := load(t, filepath.Join("testdata", "src", "kinds"))
	tests := []struct {
		fn    string
		node  string // type of the outermost loop's Node
		exits int
	}{
		{"kinds.While", "*ast.ForStmt", 1},
		{"kinds.NaturalLoop", "*ast.RangeStmt", 1},
		{"kinds.RangeInt", "*ast.RangeStmt", 1},
		{"kinds.RangeMap", "*ast.RangeStmt", 1},
		{"kinds.Nested", "*ast.RangeStmt", 1},
		// The region holds the code after the loop up to the return: no
		// edge leaves it.
		{"kinds.CompoundBreak", "*ast.ForStmt", 0},
	}
	for _, tt := range tests {
		f := p.Func(tt.fn)
		var loop *Region
		f.Walk(func(r *Region) {
			if loop == nil && r.Kind.IsLoop() {
				loop = r
			}
		})
		if loop == nil {
			t.Errorf("%s: no loop", tt.fn)
			continue
		}
		if got := typeName(loop.Node()); got != tt.node {
			t.Errorf("%s: loop node %s, want %s", tt.fn, got, tt.node)
		}
		l := loop.Loop()
		if l.Header != loop.Entry || len(l.BackEdges) == 0 {
			t.Errorf("%s: loop header b%d, %d back edges", tt.fn, l.Header.Index, len(l.BackEdges))
		}
		for _, e := range l.BackEdges {
			if e[1] != l.Header || !loop.Contains(e[0]) {
				t.Errorf("%s: bad back edge b%d->b%d", tt.fn, e[0].Index, e[1].Index)
			}
		}
		if len(l.Exits) < tt.exits {
			t.Errorf("%s: %d exits, want at least %d", tt.fn, len(l.Exits), tt.exits)
		}
		if f.Region(loop.ID()) != loop {
			t.Errorf("%s: lookup by ID %s fails", tt.fn, loop.ID())
		}
	}
}

func typeName(n ast.Node) string {
	if n == nil {
		return "nil"
	}
	return fmt.Sprintf("%T", n)
}

// TestMPILeaves checks the MPI segments of the spmd testdata: operation,
// byte size expressions, and their place inside the time-step loop.
func TestMPILeaves(t *testing.T) {
	p := load(t, filepath.Join("testdata", "src", "spmd"))
	body := p.Func("main.main$1")
	if body == nil {
		t.Fatal("no SPMD body main.main$1")
	}
	var inLoop []string
	body.Walk(func(r *Region) {
		for _, l := range r.Leaves {
			if l.Kind != MPICall {
				continue
			}
			for x := r.Parent; x != nil; x = x.Parent {
				if x.Kind.IsLoop() {
					s := l.MPI.Op + " " + l.MPI.Send.SizeExpr() + " " + l.MPI.Recv.SizeExpr()
					inLoop = append(inLoop, s)
					break
				}
			}
		}
	})
	want := []string{
		"Sendrecv len(local[1:2])*8 len(local[0:1])*8",
		"Sendrecv len(local[hi - lo:hi - lo + 1])*8 len(local[hi - lo + 1:])*8",
		"Allreduce len(res)*8 len(global)*8",
	}
	if strings.Join(inLoop, "\n") != strings.Join(want, "\n") {
		t.Errorf("MPI leaves in the loop:\n%s\nwant:\n%s", strings.Join(inLoop, "\n"), strings.Join(want, "\n"))
	}
	ops := map[string]bool{}
	for _, f := range p.Funcs {
		f.Walk(func(r *Region) {
			for _, l := range r.Leaves {
				if l.MPI != nil {
					ops[l.MPI.Op] = true
				}
			}
		})
	}
	for _, op := range []string{"Send", "Recv", "Sendrecv", "Isend", "Irecv", "Wait", "Waitall", "Test", "Barrier",
		"Bcast", "Reduce", "Allreduce", "Gather", "Gatherv", "Scatter", "Scatterv", "Allgather", "Alltoall",
		"Alltoallv", "Split", "Abort", "BeginInterval", "EndInterval", "Rank", "Size", "Wtime", "Main"} {
		if !ops[op] {
			t.Errorf("no MPI leaf for %s", op)
		}
	}
	if ops["init"] {
		t.Error("mpi's package initializer was taken for an MPI operation")
	}
}

// TestStableIDs checks that editing one function (adding lines to it)
// leaves the IDs of the other functions of the same file unchanged.
func TestStableIDs(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "src", "kinds", "kinds.go"))
	if err != nil {
		t.Fatal(err)
	}
	ids := func(src string) map[string][]string {
		dir := t.TempDir()
		must(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/kinds\n\ngo 1.26\n"), 0o644))
		must(t, os.WriteFile(filepath.Join(dir, "kinds.go"), []byte(src), 0o644))
		p := load(t, dir)
		out := map[string][]string{}
		for _, f := range p.Funcs {
			f.Walk(func(r *Region) {
				out[f.Name] = append(out[f.Name], r.ID())
				for _, l := range r.Leaves {
					out[f.Name] = append(out[f.Name], l.ID())
				}
			})
		}
		return out
	}
	before := ids(string(src))
	edited := strings.Replace(string(src), "func Sequence(a, b int) int {\n", "func Sequence(a, b int) int {\n\tif a == 42 {\n\t\tsink(0)\n\t}\n\n", 1)
	after := ids(edited)
	if strings.Join(before["kinds.Sequence"], ",") == strings.Join(after["kinds.Sequence"], ",") {
		t.Fatal("the edit did not change the edited function")
	}
	for name, want := range before {
		if name == "kinds.Sequence" || name == "kinds.init" {
			continue
		}
		if got := after[name]; strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: IDs changed after editing another function:\n%v\n%v", name, want, got)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestLoadErrors checks that bad input comes back as errors with positions.
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/bad\n\ngo 1.26\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "bad.go"), []byte("package bad\n\nfunc f() int {\n\treturn undefinedName\n}\n"), 0o644))
	_, err := Load(Config{Dir: dir}, ".")
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("got %v, want a *LoadError", err)
	}
	if !strings.Contains(err.Error(), "bad.go:4:9") || !strings.Contains(err.Error(), "undefinedName") {
		t.Errorf("error lacks the position: %v", err)
	}
	// The go command's own report of the failed compilation says the same
	// again without the directory: left out.
	if n := strings.Count(err.Error(), "undefinedName"); n != 1 {
		t.Errorf("the mistake is reported %d times: %v", n, err)
	}
	if !strings.Contains(err.Error(), "go build") {
		t.Errorf("the error does not say what to do: %v", err)
	}
	_, err = Load(Config{Dir: dir}, "./nonexistent")
	if err == nil {
		t.Fatal("loading a missing directory succeeded")
	}
	// A wrong path: the go command's message without its "-" position,
	// and what to give instead.
	if msg := err.Error(); !strings.Contains(msg, "nonexistent") || strings.Contains(msg, "-: ") || !strings.Contains(msg, "give the directory of the program's main package") {
		t.Errorf("a missing directory's error: %v", err)
	}
}

// TestLoadSaysWhatGoSays: a module whose go.mod the go command wants
// updated lists no packages through go/packages, silently; the error
// passes on the go command's own advice.
func TestLoadSaysWhatGoSays(t *testing.T) {
	root, err := filepath.Abs("..")
	must(t, err)
	dir := t.TempDir()
	// parpredict needs a newer go than this module states, so the go
	// command asks for `go mod tidy` before it lists anything.
	mod := "module example.com/stale\n\ngo 1.21\n\nrequire github.com/parpredict/parpredict v0.0.0\n\nreplace github.com/parpredict/parpredict => " + root + "\n"
	must(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nimport \"github.com/parpredict/parpredict/mpi\"\n\nfunc main() { mpi.Main(func(*mpi.Comm) {}) }\n"), 0o644))
	_, err = Load(Config{Dir: dir}, ".")
	if err == nil {
		t.Fatal("loading a module whose go.mod needs updating succeeded")
	}
	if !strings.Contains(err.Error(), "go mod tidy") {
		t.Errorf("the error does not pass on the go command's advice: %v", err)
	}
}

// Without Config.Dir a pattern is looked up in the current directory,
// and an error for one that matches nothing names that directory, not
// an empty string.
func TestLoadNamesTheCurrentDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	_, err := Load(Config{}, "./nonexistent")
	if err == nil {
		t.Fatal("loading a missing package outside any module succeeded")
	}
	if !strings.Contains(err.Error(), " in "+dir+";") {
		t.Errorf("the error does not name the directory %s: %v", dir, err)
	}
}

// TestLoadIncludesOwnPackages: a main package comes with the packages of
// its module that it imports, whose functions are the program's (the
// mpi runtime, in the same module as the examples, stays out).
func TestLoadIncludesOwnPackages(t *testing.T) {
	p, err := Load(Config{Dir: ".."}, "./prediction/testdata/ownpkg")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, sp := range p.Packages {
		paths = append(paths, sp.Pkg.Path())
	}
	if len(paths) != 2 || p.Packages[0].Pkg.Name() != "main" || !strings.HasSuffix(paths[1], "/ownpkg/kern") {
		t.Fatalf("packages %v, want main then its kern package", paths)
	}
	if p.Func("kern.Work") == nil {
		t.Error("kern.Work has no control tree")
	}
}

// The closures of two methods of one name (A.Step's and B.Step's) have
// names, and so region IDs, of their own: go/ssa's Step$1 alone named
// both, and a profile of the program held one ID twice.
func TestMethodClosureNames(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/steps\n\ngo 1.26\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "steps.go"), []byte(`package steps

type A struct{ x []float64 }
type B struct{ x []float64 }

func apply(x []float64, f func(float64) float64) {
	for i := range x {
		x[i] = f(x[i])
	}
}

func (a *A) Step() { apply(a.x, func(v float64) float64 { return v + 1 }) }
func (b B) Step()  { apply(b.x, func(v float64) float64 { return v * 2 }) }
func Plain()       { apply(nil, func(v float64) float64 { return v }) }
`), 0o644))
	p := load(t, dir)
	var names []string
	ids := map[string]bool{}
	for _, f := range p.Funcs {
		names = append(names, f.Name)
		f.Walk(func(r *Region) {
			if ids[r.ID()] {
				t.Errorf("region ID %s appears twice", r.ID())
			}
			ids[r.ID()] = true
		})
	}
	for _, want := range []string{"steps.(*A).Step$1", "steps.(B).Step$1", "steps.Plain$1"} {
		if !slices.Contains(names, want) {
			t.Errorf("no function %s among %v", want, names)
		}
	}
}
