package prediction

import (
	"slices"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/parpredict/parpredict/loopnest"
	"github.com/parpredict/parpredict/profiler"
)

// dynamicCallee is the profile's callee of a call through a function
// value.
const dynamicCallee = "(dynamic)"

// kernelRates handles the program's small kernels (cg's dot, axpy): a
// function called from a few coarse call statements, whose body and loops
// were too cheap per call to time, so that the profile has its time only
// as the own time of its call statements. Charged per call, that time
// would not change when a rank's share of the data does (1/P of the rows
// at P ranks). When every call site that ran is timed and every loop of
// the function is a reducible nest with counted iterations, the sites'
// time is charged per iteration of the function's innermost counted loops
// instead: rate = the sites' own time / the loops' profiled iterations,
// and the sites themselves cost nothing more (carried). The calls of a
// recursive function inside itself need no timer: the time of the
// recursion is in its outer sites' (sum(xs) calling sum(xs[:h]) + sum(xs[h:])),
// and the loops' iterations count every level.
func (o *Oracle) kernelRates(lp *loopnest.Program) {
	sites := map[string][]*profiler.Region{}
	timedBody := map[string]bool{}
	for i := range o.prof.Regions {
		r := &o.prof.Regions[i]
		switch {
		case r.Kind == profiler.Call && r.Callee != "" && r.Callee != dynamicCallee && !r.Library:
			sites[r.Callee] = append(sites[r.Callee], r)
		case r.Kind == profiler.FuncBody && r.Timed:
			timedBody[r.Func] = true
		}
	}
	// A closure's call statements name no callee in the profile (a call
	// of a function value); the SSA knows it where the value is the
	// closure made there (work := func(...){...}; s := work(n)). (A call
	// through an interface of the program that one of its types
	// implements names that type's method: the profiler resolves it.)
	for name, rs := range o.closureSites() {
		sites[name] = append(sites[name], rs...)
	}
	reducible := map[*loopnest.Loop]bool{}
	for _, n := range lp.Nests() {
		reducible[n] = true
	}
	never := func(*loopnest.Loop) bool { return false }
	for _, f := range lp.Funcs {
		ss := sites[f.Fn.String()]
		if len(ss) == 0 || len(f.Roots) == 0 || f.Fn.Pkg == nil || timedBody[f.Fn.Pkg.Pkg.Name()+"."+f.Fn.Name()] {
			continue
		}
		own, ok := 0.0, true
		self := o.user[f.Fn]
		for _, s := range ss {
			if self != nil && s.Func == self.Name {
				continue // a recursive call: its time is its outer site's
			}
			if s.Execs > 0 && !s.Timed {
				ok = false
			}
			if s.Timed {
				own += s.OwnNs
			}
		}
		var iters int64
		for _, root := range f.Roots {
			if !reducible[root] {
				ok = false
				break
			}
			root.Walk(func(l *loopnest.Loop) {
				if p, found := o.prof.Region(l.ID); found && p.Timed {
					ok = false
				}
			})
			for _, lf := range countedLeaves(root, never, false) {
				if p, found := o.prof.Region(lf.ID); found {
					iters += p.Iters
				}
			}
		}
		if !ok || own <= 0 || iters == 0 {
			continue
		}
		o.kernelRate[f.Fn] = own * 1e-9 / float64(iters)
		var ids []string
		for _, s := range ss {
			o.carried[s.ID] = true
			ids = append(ids, s.ID)
		}
		for _, root := range f.Roots {
			o.sources[root.ID] = ids
		}
	}
}

// kernelCosts are the per-iteration costs of root's innermost counted
// loops when root belongs to a kernel (kernelRates), else nil.
func (o *Oracle) kernelCosts(root *loopnest.Loop) map[*loopnest.Loop]float64 {
	rate, ok := o.kernelRate[root.Func]
	if !ok {
		return nil
	}
	costs := map[*loopnest.Loop]float64{}
	for _, lf := range countedLeaves(root, func(*loopnest.Loop) bool { return false }, false) {
		costs[lf] = rate
	}
	return costs
}

// closureSites are the profiled call statements of the program's closures
// by the closure's name: calls through a function value (so the profile
// names no callee) whose SSA value is a function of the program (a closure
// without free variables is the function itself).
func (o *Oracle) closureSites() map[string][]*profiler.Region {
	out := map[string][]*profiler.Region{}
	for fn, f := range o.user {
		for _, b := range fn.Blocks {
			for i, in := range b.Instrs {
				call, ok := in.(*ssa.Call)
				if !ok || call.Call.IsInvoke() {
					continue
				}
				callee := call.Call.StaticCallee() // the closure made there, or the function value
				if callee == nil || o.user[callee] == nil {
					continue
				}
				if l := f.LeafAt(b, i); l != nil {
					if r, found := o.prof.Region(l.ID()); found && r.Kind == profiler.Call && r.Callee == dynamicCallee {
						out[callee.String()] = append(out[callee.String()], r)
					}
				}
			}
		}
	}
	for name, rs := range out {
		// Map order must not reach the sums: the same profile gives the
		// same prediction to the last bit.
		sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
		out[name] = slices.CompactFunc(rs, func(a, b *profiler.Region) bool { return a.ID == b.ID })
	}
	return out
}
