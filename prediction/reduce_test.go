package prediction

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/loopnest"
	"github.com/parpredict/parpredict/model"
	"golang.org/x/tools/go/ssa"
)

// A reduced loop that calls a kernel with a loop of its own: the kernel's
// iterations follow its argument, so the predicted compute grows with the
// square of the particle count when -n doubles (the profile's time per
// call, charged per iteration of the caller, would only double it), and
// two ranks at twice the size take about what one rank takes at the
// profiled size.
func TestCalleeLoopsScaleWithArgs(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := func(n string) []string { return []string{"-n", n, "-steps", "3"} }
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/kernelcall", NP: []int{1}, Args: args("600"),
		ProfileArgs: args("600"), ProfileOut: filepath.Join(t.TempDir(), "profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	interval := func(p int, n string) float64 {
		t.Helper()
		a := args(n)
		oracle.SetArgs(a)
		run, _, err := simulate(mp, oracle, m, p, 1, p, commmodel.Block, a, false)
		if err != nil {
			t.Fatal(err)
		}
		span, ok := run.Interval(1)
		if !ok {
			t.Fatal("no interval 1")
		}
		return span
	}
	base := interval(1, "600")
	if r := interval(1, "1200") / base; r < 3.5 || r > 4.3 {
		t.Errorf("P = 1: the interval at -n 1200 over -n 600 is %.2f; want about 4", r)
	}
	if r := interval(2, "1200") / base; r < 0.9 || r > 1.2 {
		t.Errorf("P = 2 at -n 1200 over P = 1 at -n 600 is %.2f; want about 1", r)
	}
}

// A struct's fields bound a method's loops and a function ranges over
// the rows of a 2-D slice made row by row: the nests are reduced (not
// executed), and their counts follow the row length, read from the
// interpreter's memory at each entry.
func TestMemoryBoundsScaleWithArgs(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := func(n string) []string { return []string{"-n", n, "-m", "128", "-steps", "5"} }
	opts := SpeedupOptions{Dir: "..", Package: "./prediction/testdata/grid2d", NP: []int{1}, Args: args("256"),
		ProfileArgs: args("256"), ProfileOut: filepath.Join(t.TempDir(), "profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	interval := func(p int, n string) float64 {
		t.Helper()
		a := args(n)
		oracle.SetArgs(a)
		run, assumed, err := simulate(mp, oracle, m, p, 1, p, commmodel.Block, a, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, as := range assumed.Assumptions() {
			t.Errorf("P = %d, -n %s: %s: %s", p, n, as.Pos, as.What)
		}
		span, ok := run.Interval(1)
		if !ok {
			t.Fatal("no interval 1")
		}
		return span
	}
	base := interval(1, "256")
	if r := interval(1, "1024") / base; r < 3.6 || r > 4.3 {
		t.Errorf("P = 1: the interval at -n 1024 over -n 256 is %.2f; want about 4", r)
	}
	if r := interval(2, "1024") / base; r < 1.8 || r > 2.3 {
		t.Errorf("P = 2 at -n 1024 over P = 1 at -n 256 is %.2f; want about 2", r)
	}
}

// What a nest writes through a struct's slice field or a 2-D slice is the
// rows' memory, reached by a path; the struct and the row headers stay
// known.
func TestWritesThroughPaths(t *testing.T) {
	mp, err := model.Load(model.Config{Dir: "testdata/grid2d"}, ".")
	if err != nil {
		t.Fatal(err)
	}
	lp, err := loopnest.FromModel(mp, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, root := range lp.Nests() {
		in := map[*ssa.BasicBlock]bool{}
		for _, b := range root.Blocks {
			in[b] = true
		}
		plain, through := writes(root.Blocks, in)
		var parts []string
		for _, v := range plain {
			parts = append(parts, "write "+v.Name())
		}
		for _, p := range through {
			parts = append(parts, fmt.Sprintf("through %s %v elems=%v", p.Base.Name(), p.Steps, p.Elems))
		}
		got[root.Func.Name()] = strings.Join(parts, "; ")
	}
	for fn, want := range map[string]string{
		"relax":  "through g [{2}] elems=true",
		"smooth": "through a [] elems=true",
	} {
		if got[fn] != want {
			t.Errorf("%s writes %q, want %q", fn, got[fn], want)
		}
	}
}
