package prediction

import (
	"github.com/parpredict/parpredict/loopnest"
	"github.com/parpredict/parpredict/profiler"
)

// kernelRates handles the program's small kernels (cg's dot, axpy): a
// function called from a few coarse call statements, whose body and loops
// were too cheap per call to time, so that the profile has its time only
// as the own time of its call statements. Charged per call, that time
// would not change when a rank's share of the data does (1/P of the rows
// at P ranks). When every call site that ran is timed and every loop of
// the function is a reducible nest with counted iterations, the sites'
// time is charged per iteration of the function's innermost counted loops
// instead: rate = the sites' own time / the loops' profiled iterations,
// and the sites themselves cost nothing more (carried).
func (o *Oracle) kernelRates(lp *loopnest.Program) {
	sites := map[string][]*profiler.Region{}
	timedBody := map[string]bool{}
	for i := range o.prof.Regions {
		r := &o.prof.Regions[i]
		switch {
		case r.Kind == profiler.Call && r.Callee != "" && !r.Library:
			sites[r.Callee] = append(sites[r.Callee], r)
		case r.Kind == profiler.FuncBody && r.Timed:
			timedBody[r.Func] = true
		}
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
		for _, s := range ss {
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
