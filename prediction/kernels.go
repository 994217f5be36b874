package prediction

import (
	"slices"
	"sort"
	"strings"

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
// the function has counted iterations, the sites' time is charged per
// iteration of the function's innermost counted loops of its reducible
// nests and of every loop the interpreter runs step by step (a loop whose
// exit depends on the data, as a quicksort's partition) instead: rate =
// the sites' own time / the loops' profiled iterations, and the sites
// themselves cost nothing more (carried). The calls of a
// recursive function inside itself need no timer: the time of the
// recursion is in its outer sites' (sum(xs) calling sum(xs[:h]) + sum(xs[h:])),
// and the loops' iterations count every level.
//
// A dynamic call site that ran several functions (apply(f, n) given two
// kernels; dynamicSites) holds the time of all of them, which the profile
// cannot split: those functions form one group with one rate, the group's
// sites' own time over all their loops' iterations.
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
	// A closure's call statements, and calls through function values or
	// interfaces that the profiler does not resolve, name no callee in the
	// profile; the SSA and the profile's counts tell what they called.
	dyn, targets := o.dynamicSites()
	for name, rs := range dyn {
		sites[name] = append(sites[name], rs...)
	}
	group := map[string]string{} // function -> its group's first function
	var find func(string) string
	find = func(n string) string {
		if g, ok := group[n]; ok && g != n {
			g = find(g)
			group[n] = g
			return g
		}
		return n
	}
	ids := make([]string, 0, len(targets))
	for id := range targets {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fs := targets[id]
		for _, f := range fs[1:] {
			a, b := find(fs[0]), find(f)
			if a != b {
				group[max(a, b)] = min(a, b)
			}
		}
	}
	members := map[string][]*loopnest.Func{}
	var order []string
	for _, f := range lp.Funcs {
		g := find(f.Fn.String())
		if members[g] == nil {
			order = append(order, g)
		}
		members[g] = append(members[g], f)
	}
	reducible := map[*loopnest.Loop]bool{}
	for _, n := range lp.Nests() {
		reducible[n] = true
	}
	for _, g := range order {
		o.groupRate(members[g], sites, timedBody, reducible)
	}
}

// groupRate gives the functions fs, which share their call sites'
// time, one kernel rate when kernelRates' conditions hold for all of them.
func (o *Oracle) groupRate(fs []*loopnest.Func, sites map[string][]*profiler.Region, timedBody map[string]bool, reducible map[*loopnest.Loop]bool) {
	never := func(*loopnest.Loop) bool { return false }
	inGroup := map[string]bool{}
	var ss []*profiler.Region
	for _, f := range fs {
		if len(f.Roots) == 0 || f.Fn.Pkg == nil {
			return
		}
		self := o.user[f.Fn]
		if self == nil {
			return
		}
		// A generic's instance is profiled as the generic (profID).
		name, callee := o.profName(self), f.Fn.String()
		if f.Fn.Origin() != nil {
			callee = f.Fn.Origin().String()
		}
		if timedBody[name] {
			return
		}
		inGroup[name] = true
		ss = append(ss, sites[callee]...)
	}
	if len(fs) > 1 {
		sort.Slice(ss, func(i, j int) bool { return ss[i].ID < ss[j].ID })
		ss = slices.CompactFunc(ss, func(a, b *profiler.Region) bool { return a.ID == b.ID })
	}
	if len(ss) == 0 {
		return
	}
	// The sites' time is taken over the kernels' iterations in the same
	// run: a site the profiled run never reached has the numbers of a
	// contention run (Ranks), comparable only with loops that have them
	// too (the workers' calls of a farm whose master ran the kernels
	// itself at one rank).
	ranks := o.kernelRun(fs)
	own := 0.0
	for _, s := range ss {
		if inGroup[s.Func] {
			continue // a recursive call: its time is its outer site's
		}
		if s.Execs > 0 && ranks >= 0 && s.Ranks != ranks {
			continue
		}
		if s.Execs > 0 && !s.Timed {
			return
		}
		if s.Timed {
			own += s.OwnNs
		}
	}
	var iters int64
	var executed []*loopnest.Loop // loops run step by step, charged per iteration
	for _, f := range fs {
		for _, root := range f.Roots {
			timed := false
			root.Walk(func(l *loopnest.Loop) {
				if p, found := o.region(l.ID); found && p.Timed {
					timed = true
				}
			})
			if timed {
				return
			}
			n, ex, ok := o.kernelUnits(root, reducible, never)
			if !ok {
				return
			}
			iters += n
			executed = append(executed, ex...)
		}
	}
	if own <= 0 || iters == 0 {
		return
	}
	var ids []string
	for _, s := range ss {
		o.carried[s.ID] = true
		ids = append(ids, s.ID)
	}
	if len(fs) > 1 {
		names := make([]string, len(fs))
		for i, f := range fs {
			names[i] = o.user[f.Fn].Name
		}
		root := fs[0].Roots[0]
		o.note(root.Func.Prog.Fset, root.Pos, "%s ran from the same call sites (%s) through a function value or an interface: the profile has their time together, charged at one rate per iteration of their loops", strings.Join(names, ", "), strings.Join(ids, ", "))
	}
	rate := own * 1e-9 / float64(iters)
	for _, f := range fs {
		o.kernelRate[f.Fn] = rate
		for _, root := range f.Roots {
			o.sources[root.ID] = ids
		}
	}
	for _, l := range executed {
		o.addBlockCost(iterationBlock(l), rate, l.ID)
	}
}

// kernelRun is the Region.Ranks of the run that measured the first of
// fs's loop nests with executions (0: the profiled run), -1 if none did.
func (o *Oracle) kernelRun(fs []*loopnest.Func) int {
	for _, f := range fs {
		for _, root := range f.Roots {
			if pr, found := o.region(root.ID); found && pr.Execs > 0 {
				return pr.Ranks
			}
		}
	}
	return -1
}

// kernelUnits counts the units of a kernel's loop nest root that its rate
// is charged per, as the profile counted them: the iterations of the
// innermost counted loops of each reduced nest (kernelCosts), and every
// iteration of each loop the interpreter runs step by step (a partition
// loop of a quicksort, whose exits depend on the data), which it returns
// to be charged per iteration. ok is false when a loop has no counts.
func (o *Oracle) kernelUnits(root *loopnest.Loop, reducible map[*loopnest.Loop]bool, never func(*loopnest.Loop) bool) (int64, []*loopnest.Loop, bool) {
	if reducible[root] {
		var n int64
		for _, lf := range countedLeaves(root, never, false) {
			if p, found := o.region(lf.ID); found {
				n += p.Iters
			}
		}
		return n, nil, true
	}
	p, found := o.region(root.ID)
	if !found {
		return 0, nil, false
	}
	n, executed := p.Iters, []*loopnest.Loop{root}
	for _, c := range root.Inner {
		m, ex, ok := o.kernelUnits(c, reducible, never)
		if !ok {
			return 0, nil, false
		}
		n += m
		executed = append(executed, ex...)
	}
	return n, executed, true
}

// iterationBlock is the block of loop l that runs once per iteration: the
// header's successor inside the loop when the header tests the exit, the
// header itself otherwise (for {}).
func iterationBlock(l *loopnest.Loop) *ssa.BasicBlock {
	h := l.Header
	if n := len(h.Instrs); n > 0 {
		if _, ok := h.Instrs[n-1].(*ssa.If); ok {
			in0, in1 := l.Contains(h.Succs[0]), l.Contains(h.Succs[1])
			switch {
			case in0 && !in1:
				return h.Succs[0]
			case in1 && !in0:
				return h.Succs[1]
			}
		}
	}
	return h
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

// callsCarriedKernel reports whether the nest's code calls a kernel at a
// site whose time the kernel's rate carries (kernelRates), other than
// through a callee copy of the nest (Loop.Callees, whose iterations its
// reduction counts): reduced, the nest would charge that site's profiled
// time per iteration, whatever the data the kernel is given
// (repeat(5, g.relax, u) with u a rank's share). Such a nest is executed.
func (o *Oracle) callsCarriedKernel(root *loopnest.Loop) bool {
	inlined := map[ssa.CallInstruction]bool{}
	root.WalkAll(func(l *loopnest.Loop) {
		if l.Inlined != nil {
			inlined[l.Inlined.Call] = true
		}
	})
	f := o.user[root.Func]
	if f == nil {
		return false
	}
	for _, b := range root.Blocks {
		for i, in := range b.Instrs {
			call, ok := in.(ssa.CallInstruction)
			if !ok || inlined[call] {
				continue
			}
			if l := f.LeafAt(b, i); l != nil && o.carried[l.ID()] {
				return true
			}
		}
	}
	return false
}
