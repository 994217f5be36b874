package loopnest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/internal/atomicfile"
	"github.com/parpredict/parpredict/loopnest/symbolic"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

var examples = []string{"cg", "heat", "mandelbrot", "matmul", "pingpong", "transpose"}

// roots returns the outermost loops of the named function.
func roots(t *testing.T, p *Program, fn string) []*Loop {
	t.Helper()
	for _, f := range p.Funcs {
		if funcName(f.Fn) == fn {
			return f.Roots
		}
	}
	t.Fatalf("no function %s with loops", fn)
	return nil
}

func TestExamplesHeavyNestsReduced(t *testing.T) {
	for _, tc := range []struct {
		example string
		funcs   []string
	}{
		{"matmul", []string{"main.multiplyRows"}},
		{"heat", []string{"main.jacobiStep"}},
		{"mandelbrot", []string{"main.mandelRow", "main.run"}},
		{"cg", []string{"main.laplace", "main.dot", "main.axpy", "main.xpby"}},
	} {
		p := load(t, "../examples/"+tc.example)
		for _, fn := range tc.funcs {
			for _, l := range roots(t, p, fn) {
				if fn == "main.run" && len(l.MPI) > 0 {
					continue // mandelbrot's run: only its row loop
				}
				if !l.Reduction.Reducible || l.Reduction.Nest != l {
					t.Errorf("%s: %s is not the root of a reduced nest: %q", tc.example, l.ID, l.Reduction.Reasons)
				}
				l.Walk(func(x *Loop) {
					if x.Reduction.Nest != l {
						t.Errorf("%s: %s is not in the nest of %s", tc.example, x.ID, l.ID)
					}
				})
			}
		}
	}
}

func TestExamplesMPILoopsNotReduced(t *testing.T) {
	withMPI := 0
	for _, ex := range examples {
		p := load(t, "../examples/"+ex)
		for _, f := range p.Funcs {
			for _, l := range f.Loops {
				if len(l.MPI) == 0 {
					continue
				}
				withMPI++
				if l.Reduction.Reducible {
					t.Errorf("%s: %s contains MPI (%v) but is reduced", ex, l.ID, siteNames(l.MPI))
				}
				if !strings.Contains(strings.Join(l.Reduction.Reasons, ";"), "contains MPI") {
					t.Errorf("%s: %s: reasons %q do not mention MPI", ex, l.ID, l.Reduction.Reasons)
				}
			}
		}
	}
	if withMPI < 6 {
		t.Errorf("only %d loops with MPI in the examples; the test is not testing much", withMPI)
	}
}

// mainLoop returns the loop of run that calls Allreduce: the convergence
// loop of heat and cg.
func mainLoop(t *testing.T, p *Program) *Loop {
	t.Helper()
	for _, l := range roots(t, p, "main.run") {
		for _, s := range l.MPI {
			if s.Name == "Allreduce" {
				return l
			}
		}
	}
	t.Fatal("no loop of main.run calls Allreduce")
	return nil
}

func TestExamplesConvergenceLoopsDataDependent(t *testing.T) {
	for _, ex := range []string{"heat", "cg"} {
		l := mainLoop(t, load(t, "../examples/"+ex))
		if !l.DataDependent {
			t.Errorf("%s: convergence loop %s is not data-dependent (notes %q)", ex, l.ID, l.Notes)
		}
		if l.Reduction.Reducible {
			t.Errorf("%s: convergence loop %s is reduced", ex, l.ID)
		}
	}
}

func TestExamplesRowLoopsDependOnRankSize(t *testing.T) {
	for _, tc := range []struct{ example, fn string }{
		{"matmul", "main.multiplyRows"},
		{"heat", "main.jacobiStep"},
		{"heat", "main.initGrid"},
		{"cg", "main.laplace"},
	} {
		for _, l := range roots(t, load(t, "../examples/"+tc.example), tc.fn) {
			if !l.RankSize {
				t.Errorf("%s: row loop %s (trip %v) does not depend on rank/size", tc.example, l.ID, l.Trip)
			}
			for _, in := range l.Inner {
				if in.RankSize {
					t.Errorf("%s: column loop %s (trip %v) depends on rank/size", tc.example, in.ID, in.Trip)
				}
			}
		}
	}
}

func TestExamplesGolden(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex, func(t *testing.T) {
			var buf bytes.Buffer
			if err := load(t, "../examples/"+ex).Report().WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", ex+".txt")
			if *update {
				if err := atomicfile.Write(golden, buf.Bytes()); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./loopnest -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("report differs from %s (rerun with -update if the change is intended):\n%s", golden, buf.String())
			}
		})
	}
}

func TestIterationsBoundBySSAValues(t *testing.T) {
	// The interpreter binds symbols by the SSA values it knows.
	p := load(t, "../examples/heat")
	var nest *Loop
	for _, l := range p.Nests() {
		if funcName(l.Func) == "main.jacobiStep" {
			nest = l
		}
	}
	if nest == nil || len(nest.Inner) != 1 {
		t.Fatal("no jacobiStep nest with one inner loop")
	}
	vals := symbolic.Values{}
	for _, prm := range nest.Func.Params {
		switch prm.Name() {
		case "rows":
			vals[prm] = 10
		case "n":
			vals[prm] = 6
		}
	}
	totals, err := Iterations(nest, vals)
	if err != nil {
		t.Fatal(err)
	}
	if totals[nest] != 10 || totals[nest.Inner[0]] != 10*4 {
		t.Errorf("totals = %d, %d; want 10, 40", totals[nest], totals[nest.Inner[0]])
	}
}

// TestExamplesIndex finds the global row of loops that count a rank's rows
// from 0, and no index in loops that are not distributed.
func TestExamplesIndex(t *testing.T) {
	for _, tc := range []struct{ example, fn, want string }{
		{"mandelbrot", "main.run", "first+k*stride"},
		{"heat", "main.initGrid", "lo+k"},
		{"heat", "main.exchangeHalos", ""},   // phase 0, 1: rank+phase is a neighbour, not an iteration
		{"pingpong", "main.fillPattern", ""}, // 7*len(b)+131*i is a value
		{"heat", "main.jacobiStep", ""},      // counts the rank's rows from 1, no row index
	} {
		p := load(t, "../examples/"+tc.example)
		l := roots(t, p, tc.fn)[0]
		got := ""
		if l.Index != nil {
			got = l.Index.Expr(l.Counter.Name)
		}
		if got != tc.want {
			t.Errorf("%s: %s: index %q, want %q", tc.example, l.ID, got, tc.want)
		}
	}
}
