package profiler

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/parpredict/parpredict/mpi"
	"github.com/parpredict/parpredict/profiler/probe"
)

// timingBinary is the program instrumented for the timed runs: probes only
// at the regions the plan times. Every other region's numbers come from the
// counting run, so the timed runs execute the program's own code everywhere
// else: no counters in element loops, no probe that keeps a small kernel
// from being inlined, no probe inside a tight loop nest (the plan times
// such a nest from outside, with a Span whose state is not in registers).
// The time they measure is then the uninstrumented program's, up to the
// timers, whose cost is bounded by the budget and subtracted.
type timingBinary struct {
	bin  string
	in   *Instrumented
	plan timerPlan // in the timing binary's region indices
	full []int     // timing region index -> the counting binary's index
}

// buildTiming instruments and builds the timing binary for plan, whose
// indices are those of full (the counting instrumentation of targets):
// per-iteration probes only on the plan's vec loops that are not apart.
// With vectors set it builds the vector binary instead, the same with
// per-iteration probes on every vec loop, whose runs give the apart loops'
// iteration times (their shape; the timing binary gives the times).
func buildTiming(ctx context.Context, prog *Program, full *Instrumented, targets []Target, plan timerPlan, dir string, tags []string, vectors bool) (*timingBinary, error) {
	byID := make(map[string]int, len(full.Regions))
	for _, r := range full.Regions {
		byID[r.ID] = r.Index
	}
	name := "timing"
	if vectors {
		name = "vectors"
	}
	withVec := func(k int) bool { return plan.vec[k] && (vectors || !plan.apart[k]) }
	var keep []Target
	vecLoops := map[string]bool{}
	for _, t := range targets {
		if k, ok := byID[t.ID]; ok && plan.timed[k] {
			keep = append(keep, t)
			if withVec(k) {
				vecLoops[t.ID] = true
			}
		}
	}
	in, err := Instrument(prog, keep, InstrOptions{VecLoops: vecLoops, Timing: true})
	if err != nil {
		return nil, err
	}
	tb := &timingBinary{in: in, plan: timerPlan{timed: map[int]bool{}, vec: map[int]bool{}, vecLen: map[int]int64{}}, full: make([]int, len(in.Regions))}
	for _, r := range in.Regions {
		k, ok := byID[r.ID]
		if !ok || !plan.timed[k] || r.noProbe {
			return nil, fmt.Errorf("profiler: internal error (%s instrumentation): region %s has no timed counterpart in the counting instrumentation", name, r.ID)
		}
		tb.full[r.Index] = k
		tb.plan.timed[r.Index] = true
		if withVec(k) {
			if !r.vecProbe {
				return nil, fmt.Errorf("profiler: internal error (%s instrumentation): loop %s lost its per-iteration probe", name, r.ID)
			}
			tb.plan.vec[r.Index] = true
			tb.plan.vecLen[r.Index] = plan.vecLen[k]
		}
	}
	if tb.bin, err = Build(ctx, prog, in, dir, name, tags...); err != nil {
		return nil, err
	}
	return tb, nil
}

// merge returns the counting run's counters with the timed regions'
// counters (times, and the executions and iterations they go with) taken
// from a run of the timing binary.
func (tb *timingBinary) merge(count, timed *probe.Counts) *probe.Counts {
	out := *timed
	out.Regions, out.Costs = append([]probe.RegionCounts(nil), count.Regions...), count.Costs
	for j, k := range tb.full {
		if j < len(timed.Regions) && k < len(out.Regions) {
			out.Regions[k] = timed.Regions[j]
			out.Regions[k].RankTrips = count.Regions[k].RankTrips
		}
	}
	return &out
}

// runTimed runs the timing binary and returns its measurements in the
// counting binary's region indices.
func (r *runner) runTimed(ctx context.Context, name string, tb *timingBinary, count *measured, np int) (*measured, error) {
	tr := *r
	tr.bin, tr.n, tr.in = tb.bin, len(tb.in.Regions)+1, tb.in
	m, err := tr.run(ctx, name, &tb.plan, np, true)
	if err != nil {
		return nil, err
	}
	m.counts = tb.merge(count.counts, m.counts)
	return m, nil
}

// baselineBinary is the program with a single probe, a timer on main's
// body: the uninstrumented program's run time without process start-up,
// which for short runs is a good part of the wall time and is in no
// region's own time.
type baselineBinary struct {
	bin  string
	in   *Instrumented
	main int // main's region index in the baseline instrumentation
}

// buildBaseline instruments only main's body.
func buildBaseline(ctx context.Context, prog *Program, full *Instrumented, targets []Target, dir string, tags []string) (*baselineBinary, error) {
	var id string
	for _, r := range full.Regions {
		if isEntry(r) && r.decl.Name() == "main" {
			id = r.ID
		}
	}
	var keep []Target
	for _, t := range targets {
		if t.ID == id {
			keep = append(keep, t)
		}
	}
	if len(keep) != 1 {
		return nil, fmt.Errorf("profiler: internal error (baseline instrumentation): no probe target for main's body of %s", prog.Main.PkgPath)
	}
	in, err := Instrument(prog, keep, InstrOptions{})
	if err != nil {
		return nil, err
	}
	if len(in.Regions) != 1 {
		return nil, fmt.Errorf("profiler: internal error (baseline instrumentation): %d regions, want main's body alone", len(in.Regions))
	}
	bin, err := Build(ctx, prog, in, dir, "baseline", tags...)
	if err != nil {
		return nil, err
	}
	return &baselineBinary{bin: bin, in: in, main: in.Regions[0].Index}, nil
}

// runBaseline runs the baseline binary and returns its wall time and
// main's time, in nanoseconds.
func (r *runner) runBaseline(ctx context.Context, bb *baselineBinary, np int) (wallNs, mainNs float64, err error) {
	br := *r
	br.bin, br.n, br.in = bb.bin, bb.main+1, bb.in
	m, err := br.run(ctx, "baseline", &timerPlan{timed: map[int]bool{bb.main: true}}, np, false)
	if err != nil {
		return 0, 0, err
	}
	if bb.main >= len(m.counts.Regions) {
		return 0, 0, fmt.Errorf("profiler: the baseline program recorded no time for main")
	}
	return m.wallNs, float64(m.counts.Regions[bb.main].Ns), nil
}

// countedLoops are the loops whose trip count is not known at entry.
func countedLoops(in *Instrumented) map[int]bool {
	set := map[int]bool{}
	for _, r := range in.Regions {
		if r.Kind == Loop && r.counted {
			set[r.Index] = true
		}
	}
	return set
}

// everyLoop is the set of in's loops.
func everyLoop(in *Instrumented) map[int]bool {
	set := map[int]bool{}
	for _, r := range in.Regions {
		if r.Kind == Loop {
			set[r.Index] = true
		}
	}
	return set
}

// plainBinary is the program built without any probe: the binary the
// user runs.
type plainBinary struct {
	bin, trace string
}

func buildPlain(ctx context.Context, prog *Program, dir string, tags []string) (*plainBinary, error) {
	bin, err := Build(ctx, prog, nil, dir, "plain", tags...)
	if err != nil {
		return nil, err
	}
	return &plainBinary{bin: bin, trace: filepath.Join(dir, "plain-trace.json")}, nil
}

// runPlain runs the program without probes once and returns its ranks'
// body time summed over the ranks, in nanoseconds, from the goroutine
// backend's trace of interval marks (each rank's Start and Finish); 0 if
// the trace has none (a program that does not use mpi.Main, or another
// backend).
func (r *runner) runPlain(ctx context.Context, pb *plainBinary) (float64, error) {
	os.Remove(pb.trace)
	if _, err := r.exec(ctx, pb.bin, r.opts.NP, []string{mpi.EnvTrace + "=" + pb.trace, mpi.EnvTraceIntervals + "=1"}); err != nil {
		return 0, err
	}
	tr, err := mpi.ReadTrace(pb.trace)
	if err != nil {
		return 0, nil // no trace: not a program of mpi.Main
	}
	sum, ok := tr.BodySum()
	if !ok {
		return 0, nil
	}
	return sum * 1e9, nil
}
