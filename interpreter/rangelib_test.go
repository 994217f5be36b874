package interpreter

import (
	"go/ast"
	"go/parser"
	"math"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// rangeOracle is a test oracle that knows every range-over-func body's
// time: 1 ns per iteration, 5 us per entry.
type rangeOracle struct{ testOracle }

func (o *rangeOracle) RangeCost(*ssa.Function) (perIter, perEntry float64, label string, ok bool) {
	return 1e-9, 5e-6, "range", true
}

// A range over slices.All or maps.Keys costs the body's time per
// iteration times the elements, and what the body assigns or writes
// becomes unknown but the slice's length; a body that may break early or
// calls MPI costs the loop's time per entry, and says so.
func TestRangeOverLibraryIterators(t *testing.T) {
	prog, pkg := loadSSA(t, "./testdata/rangelib")
	run, sp := simulateWith(t, prog, pkg, &rangeOracle{testOracle{user: pkg.Pkg.Path(), perBlock: 1e-6}}, 2)
	// The ranks run the same blocks; rank 1 has 1000 more elements.
	if d := run.Ranks[1].Compute - run.Ranks[0].Compute; math.Abs(d-1000e-9) > 1e-12 {
		t.Errorf("rank 1 computes %g s more than rank 0, want 1e-06 (1000 more iterations of 1 ns)", d)
	}
	want := map[string]bool{"may leave the loop early (break)": false, "makes MPI calls (Barrier)": false}
	for _, a := range sp.Assumptions() {
		found := false
		for w := range want {
			if strings.Contains(a.What, w) {
				want[w], found = true, true
			}
		}
		if !found {
			t.Errorf("unexpected assumption at %s: %s", a.Pos, a.What)
		}
	}
	for w, seen := range want {
		if !seen {
			t.Errorf("no assumption saying the body %s: %v", w, sp.Assumptions())
		}
	}
}

// earlyExit finds what leaves a range body early and not what ends an
// inner statement or one iteration.
func TestEarlyExit(t *testing.T) {
	for src, want := range map[string]string{
		"s += v":                "",
		"if v > 0 { continue }": "",
		"for j := 0; j < 3; j++ { if j > v { break } }": "",
		"switch v { case 1: break }":                    "",
		"if v > 0 { break }":                            "break",
		"if v > 0 { return }":                           "return",
		"for { break outer }":                           "labelled break",
		"goto end":                                      "goto",
		"defer f()":                                     "defer",
		"g := func() { return }; g()":                   "",
	} {
		body := parseBody(t, "{"+src+"}")
		if got := earlyExit(body); got != want {
			t.Errorf("%s: %q, want %q", src, got, want)
		}
	}
}

// parseBody parses a block statement.
func parseBody(t *testing.T, src string) *ast.BlockStmt {
	t.Helper()
	e, err := parser.ParseExpr("func() " + src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return e.(*ast.FuncLit).Body
}
