package profiler

import (
	"go/types"
	"slices"
	"sort"

	"github.com/parpredict/parpredict/profiler/probe"
)

// timerPlan says which regions get a timer and which loops per-iteration
// times, decided from a counting run.
type timerPlan struct {
	timed map[int]bool
	vec   map[int]bool
	// apart are the vec loops that are tight: a per-iteration tick would
	// be the only call in them and change their code, so the timing
	// binary has none and their vectors come from runs of their own.
	apart map[int]bool
	// fine are the apart loops whose iterations are too fine for a tick
	// in the timed runs (Imbalance.Fine).
	fine map[int]bool
	// vecLen is the most iterations of one entry of each vec loop in the
	// counting run: the probes allocate the vectors before main starts,
	// so that their growth is not timed inside the loop.
	vecLen map[int]int64
}

// planTimers gives timers to the regions that are coarse enough: a timer
// costs about execs x probe cost, and is given only while that stays below
// budget/10 of the run for the region and budget for all of them. A region
// is never timed when its time would be counted twice: inside a function
// literal other than a rank body, or inside a function that is called
// from somewhere untimed (an untimed call site, a call through a function
// value or an interface) - its time is then the own time of its callers -,
// nor inside a tight loop (region.tight), whose code a probe would change.
func planTimers(in *Instrumented, counts *probe.Counts, costs probe.Costs, wallNs, budget float64) timerPlan {
	execs := func(r *region) int64 {
		if r.Index < len(counts.Regions) {
			return counts.Regions[r.Index].Execs
		}
		return 0
	}
	bodyOf := map[*types.Func]*region{}
	for _, r := range in.Regions {
		if r.declBody && r.decl != nil {
			bodyOf[r.decl] = r
		}
	}
	// Executions of bodies, which count only when timed: from their sites.
	bodyExecs := func(r *region) int64 {
		if r.rank || isEntry(r) {
			return 1
		}
		var n int64
		if u := in.uses[r.decl]; u != nil {
			for _, s := range u.sites {
				if s >= 0 {
					n += execs(in.Regions[s])
				}
			}
		}
		return n
	}
	type cand struct {
		r    *region
		cost float64
	}
	var cands []cand
	for _, r := range in.Regions {
		if r.lit || r.noProbe || r.inTight {
			continue
		}
		switch r.Kind {
		case FuncBody:
			cands = append(cands, cand{r, float64(bodyExecs(r)) * costs.Body})
		case Loop, Copy:
			cands = append(cands, cand{r, float64(execs(r)) * costs.Loop})
		case Call:
			cands = append(cands, cand{r, float64(execs(r)) * costs.Timer})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].cost < cands[j].cost })
	plan := timerPlan{timed: map[int]bool{}, vec: map[int]bool{}, apart: map[int]bool{}, fine: map[int]bool{}, vecLen: map[int]int64{}}
	spent := 0.0
	for _, c := range cands {
		if c.cost > budget/10*wallNs || spent+c.cost > budget*wallNs {
			continue
		}
		plan.timed[c.r.Index] = true
		spent += c.cost
	}
	// Functions whose time would be counted twice lose all their timers;
	// that makes their call sites untimed, so repeat until nothing changes.
	disabled := map[*types.Func]bool{}
	for changed := true; changed; {
		changed = false
		for f, body := range bodyOf {
			if disabled[f] || isEntry(body) || cleanCallee(in, f, plan) {
				continue
			}
			disabled[f] = true
			changed = true
			for _, r := range in.Regions {
				if r.decl == f {
					delete(plan.timed, r.Index)
				}
			}
		}
	}
	for _, r := range in.Regions {
		if r.Kind != Loop || !r.vec || !plan.timed[r.Index] || r.Index >= len(counts.Regions) {
			continue
		}
		rc := counts.Regions[r.Index]
		ticks := float64(rc.Iters) * costs.Tick
		inRun := ticks <= budget/10*wallNs
		// Iterations too fine for a tick in the timed runs (trial
		// division of candidates dealt out cyclically: 80 ns each, the
		// cost following the candidate) get their vector from runs of
		// their own, as tight loops do, while it stays short enough to
		// keep and its ticks cost at most the run again.
		fine := !inRun && rc.MaxIter <= maxFineVec && ticks <= wallNs
		if inRun || fine {
			plan.vec[r.Index] = true
			plan.vecLen[r.Index] = rc.MaxIter
			if r.tight || fine {
				plan.apart[r.Index] = true
			}
			if fine {
				plan.fine[r.Index] = true
			}
		}
	}
	return plan
}

// planCounts are the counts planTimers decides by: the counting run's,
// and for the regions it never reached, those of the smallest contention
// run with more ranks that did (ppn[i] ranks counted in runs[i]), the
// ranks' executions summed. Code that runs only with a neighbour is timed
// in the contention runs alone, and what it costs there decides whether
// it can bear a timer. Only executions and iterations are taken: the
// per-iteration vectors still come from the profiled run.
func planCounts(count *measured, ppn []int, runs []*measured) *probe.Counts {
	merged := *count.counts
	merged.Regions = slices.Clone(count.counts.Regions)
	for i, k := range ppn {
		if k <= max(count.np, 1) || i >= len(runs) || runs[i] == nil {
			continue
		}
		for j, rc := range runs[i].counts.Regions {
			if j < len(merged.Regions) && merged.Regions[j].Execs == 0 && rc.Execs > 0 {
				merged.Regions[j] = probe.RegionCounts{Execs: rc.Execs, Iters: rc.Iters}
			}
		}
	}
	return &merged
}

// maxFineVec is the most iterations per entry of a loop whose vector comes
// from runs of its own because its iterations are too fine for ticks in
// the timed runs: 2 MiB per run while profiling, a few in the profile.
const maxFineVec = 1 << 18

// cleanCallee reports whether every call of f is a timed call site.
func cleanCallee(in *Instrumented, f *types.Func, plan timerPlan) bool {
	if in.calledThroughInterface(f) {
		return false
	}
	u := in.uses[f]
	if u == nil || u.byValue || len(u.sites) == 0 {
		return false
	}
	for _, s := range u.sites {
		if s < 0 || !plan.timed[s] {
			return false
		}
	}
	return true
}

// calledThroughInterface reports whether method f may be called through
// an interface method the program calls: one of its name whose interface
// f's receiver type implements.
func (in *Instrumented) calledThroughInterface(f *types.Func) bool {
	recv := f.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	for _, m := range in.dynamic[f.Name()] {
		iface, ok := m.Type().(*types.Signature).Recv().Type().Underlying().(*types.Interface)
		if !ok || types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface) {
			return true
		}
	}
	return false
}

// isEntry reports whether r is the body of main.main or of an init
// function, which the runtime calls.
func isEntry(r *region) bool {
	if !r.declBody || r.decl == nil || r.decl.Pkg() == nil {
		return false
	}
	if r.decl.Type().(*types.Signature).Recv() != nil {
		return false
	}
	name := r.decl.Name()
	return name == "init" || (name == "main" && r.decl.Pkg().Name() == "main")
}
