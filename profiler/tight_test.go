package profiler

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/profiler/probe"
)

// loopsOf returns the loop regions of the function named fn, outermost
// first.
func loopsOf(in *Instrumented, fn string) []*region {
	var out []*region
	for _, r := range in.Regions {
		if r.Kind == Loop && r.decl != nil && r.decl.Name() == fn {
			out = append(out, r)
		}
	}
	return out
}

// TestTightLoops checks which loops are tight, that the timer plan times
// nothing inside them and measures their per-iteration times apart, and
// that the timing binary has no probe inside them.
func TestTightLoops(t *testing.T) {
	prog, ts, in := instrumentTight(t)
	for _, tc := range []struct {
		fn             string
		tight, inTight []bool // per loop, outermost first
	}{
		{"nest", []bool{true, true}, []bool{false, true}},
		{"roots", []bool{true}, []bool{false}},
		{"calls", []bool{false, false}, []bool{false, false}},
		{"grows", []bool{false}, []bool{false}},
	} {
		loops := loopsOf(in, tc.fn)
		if len(loops) != len(tc.tight) {
			t.Fatalf("%s: %d loops, want %d", tc.fn, len(loops), len(tc.tight))
		}
		for i, l := range loops {
			if l.tight != tc.tight[i] || l.inTight != tc.inTight[i] {
				t.Errorf("%s loop %d (%s): tight %v, inTight %v; want %v, %v", tc.fn, i, l.ID, l.tight, l.inTight, tc.tight[i], tc.inTight[i])
			}
		}
	}

	// Every region cheap enough to time: one execution, a few iterations.
	counts := &probe.Counts{Regions: make([]probe.RegionCounts, len(in.Regions))}
	for i := range counts.Regions {
		counts.Regions[i] = probe.RegionCounts{Execs: 1, Iters: 8}
	}
	plan := planTimers(in, counts, probe.Costs{Timer: 50, Body: 50, Loop: 50, Tick: 30}, 1e9, 0.05)
	for _, r := range in.Regions {
		if r.inTight && plan.timed[r.Index] {
			t.Errorf("%s is inside a tight loop but timed", r.ID)
		}
	}
	nest, calls := loopsOf(in, "nest")[0], loopsOf(in, "calls")[0]
	if !plan.timed[nest.Index] || !plan.vec[nest.Index] || !plan.apart[nest.Index] {
		t.Errorf("nest's outer loop: timed %v, vec %v, apart %v; want all true", plan.timed[nest.Index], plan.vec[nest.Index], plan.apart[nest.Index])
	}
	if !plan.vec[calls.Index] || plan.apart[calls.Index] {
		t.Errorf("calls' outer loop: vec %v, apart %v; want a vector in the timing binary", plan.vec[calls.Index], plan.apart[calls.Index])
	}

	// The timing binary times nest from outside, with a Span, and has no
	// probe between the nest's first line and its end; the vector binary
	// ticks in it.
	ctx := context.Background()
	dir := t.TempDir()
	for _, vectors := range []bool{false, true} {
		tb, err := buildTiming(ctx, prog, in, ts, plan, dir, nil, vectors)
		if err != nil {
			t.Fatal(err)
		}
		src := tb.in.Files[prog.Main.CompiledGoFiles[0]]
		body := funcText(t, src, "func nest(")
		head, rest, _ := strings.Cut(body, "for i := 0; i < n; i++ {")
		inner, tail, _ := strings.Cut(rest, "return s")
		if !strings.Contains(head, ".Span; _pt") || !strings.Contains(head, ".Begin(") || !strings.Contains(tail+inner, ".End(") {
			t.Errorf("vectors=%v: nest is not timed by a Span:\n%s", vectors, body)
		}
		// After the loop header: End alone, or the tick, End and Done.
		want := 1
		if vectors {
			want = 3
		}
		if probes := len(probeRef.FindAllString(inner, -1)); probes != want || vectors != strings.Contains(inner, ".Tick()") {
			t.Errorf("vectors=%v: %d probes from the nest's header on, want %d:\n%s", vectors, probes, want, body)
		}
		// The timing binary must behave as the program does.
		bin, err := Build(ctx, prog, tb.in, dir, "timing")
		if err != nil {
			t.Fatal(err)
		}
		plain, err := Build(ctx, prog, nil, dir, "plain")
		if err != nil {
			t.Fatal(err)
		}
		env := []string{probe.EnvN + "=" + itoa(len(tb.in.Regions)+1), probe.EnvTimed + "=all", probe.EnvVec + "=all",
			probe.EnvOut + "=" + filepath.Join(dir, "t.json")}
		if got, want := runBin(t, bin, env), runBin(t, plain, nil); got != want {
			t.Errorf("vectors=%v: timing binary printed %q, the program %q", vectors, got, want)
		}
	}
}

// probeRef matches a use of the probe package or of a probe's local.
var probeRef = regexp.MustCompile(`\b_p[a-z]+[0-9]*\b`)

// funcText returns the text of the function starting with decl.
func funcText(t *testing.T, src []byte, decl string) string {
	t.Helper()
	i := bytes.Index(src, []byte(decl))
	if i < 0 {
		t.Fatalf("no %q in\n%s", decl, src)
	}
	j := bytes.Index(src[i:], []byte("\n}\n"))
	return string(src[i : i+j+2])
}

// TestScaleVec checks that vectors from the vector runs keep their shape
// and tick and take the timed run's scale.
func TestScaleVec(t *testing.T) {
	got := scaleVec([]int64{130, 230, 30}, 2, 30)
	want := []int64{230, 430, 30}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("scaleVec = %v, want %v", got, want)
		}
	}
	if _, err := os.Stat("testdata/tight/main.go"); err != nil {
		t.Fatal(err)
	}
}

// TestContentionWorkUnits checks what a region's time per unit of work is
// taken over: the iterations of the untimed innermost loops below it, or
// of a kernel it calls, so that a rank's share of a distributed nest
// costs the same per unit at every rank count.
func TestContentionWorkUnits(t *testing.T) {
	_, _, in := instrumentTight(t)
	outer, inner := loopsOf(in, "nest")[0], loopsOf(in, "nest")[1]
	kernel := loopsOf(in, "scale")[0]
	var sites []*region
	for _, r := range in.Regions {
		if r.Kind == Call && r.callee != nil && r.callee.Name() == "scale" {
			sites = append(sites, r)
		}
	}
	if len(sites) != 2 {
		t.Fatalf("%d call sites of scale, want 2", len(sites))
	}
	plan := timerPlan{timed: map[int]bool{outer.Index: true, sites[0].Index: true, sites[1].Index: true}}
	// run makes an aggregator for a run in which each of nest's 64 rows
	// has its columns shared by ranks ranks (an outer iteration is not the
	// same work at every rank count), its inner loop slows down by slow
	// per iteration, and the kernel runs 4096 and 64 iterations from its
	// two sites.
	run := func(ranks int, slow float64) *aggregator {
		counts := &probe.Counts{Regions: make([]probe.RegionCounts, len(in.Regions))}
		cols := int64(64 / ranks)
		counts.Regions[outer.Index] = probe.RegionCounts{Execs: 1, Iters: 64, Ns: int64(float64(64*cols*10) * slow)}
		counts.Regions[inner.Index] = probe.RegionCounts{Execs: 64, Iters: 64 * cols}
		counts.Regions[kernel.Index] = probe.RegionCounts{Execs: 2, Iters: 4096 + 64}
		for _, s := range sites {
			counts.Regions[s.Index] = probe.RegionCounts{Execs: 1, Ns: 1000}
		}
		a := &aggregator{in: in, plan: plan, m: measured{counts: counts, np: ranks}}
		a.run()
		return a
	}
	base := run(1, 1)
	units := base.workUnits()
	if got := units[outer.Index]; got != 64*64 {
		t.Errorf("nest: %v units, want its inner loop's 4096 iterations", got)
	}
	for _, s := range sites {
		if got := units[s.Index]; got != (4096+64)/2 {
			t.Errorf("%s: %v units, want half the kernel's iterations", s.ID, got)
		}
	}
	c := &Contention{PPN: []int{1, 2}, Regions: map[string][]float64{}}
	c.add(base, base)
	c.add(base, run(2, 1.5))
	if got := c.Regions[outer.ID]; len(got) != 2 || got[0] != 1 || math.Abs(got[1]-1.5) > 1e-9 {
		t.Errorf("nest's slowdowns %v, want [1 1.5]: half the columns at 1.5 times the time per inner iteration", got)
	}
}

// A timed loop whose iterations each call a kernel from an untimed
// statement does the kernel's iterations: they are its units, so that a
// kernel whose loop follows the rank's share (a quadratic one) costs the
// same per unit at every rank count.
func TestContentionUnitsOfKernelsCalledInLoops(t *testing.T) {
	_, _, in := instrumentTight(t)
	loop, kernel := loopsOf(in, "rows")[0], loopsOf(in, "rowSum")[0]
	var site *region
	for _, r := range in.Regions {
		if r.Kind == Call && r.callee != nil && r.callee.Name() == "rowSum" {
			site = r
		}
	}
	if site == nil {
		t.Fatal("no call site of rowSum")
	}
	counts := &probe.Counts{Regions: make([]probe.RegionCounts, len(in.Regions))}
	counts.Regions[loop.Index] = probe.RegionCounts{Execs: 1, Iters: 64, Ns: 100000}
	counts.Regions[kernel.Index] = probe.RegionCounts{Execs: 64, Iters: 64 * 64}
	counts.Regions[site.Index] = probe.RegionCounts{Execs: 64}
	a := &aggregator{in: in, plan: timerPlan{timed: map[int]bool{loop.Index: true}}, m: measured{counts: counts, np: 1}}
	a.run()
	if got := a.workUnits()[loop.Index]; got != 64*64 {
		t.Errorf("rows' loop: %v units, want the kernel's 4096 iterations", got)
	}
}

// instrumentTight loads testdata/tight and instruments it for counting.
func instrumentTight(t *testing.T) (*Program, []Target, *Instrumented) {
	t.Helper()
	return instrumentCounting(t, ".", "./testdata/tight")
}

// instrumentCounting loads the program pkg in dir and instruments it at
// the model's targets as the counting binary has it.
func instrumentCounting(tb testing.TB, dir, pkg string) (*Program, []Target, *Instrumented) {
	tb.Helper()
	prog, err := LoadProgram(dir, pkg)
	if err != nil {
		tb.Fatal(err)
	}
	ts, err := ModelTargets(prog)
	if err != nil {
		tb.Fatal(err)
	}
	in, err := Instrument(prog, ts, InstrOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return prog, ts, in
}
