package profiler

import (
	"go/ast"
	"go/types"
	"maps"
	"slices"

	"github.com/parpredict/parpredict/profiler/probe"
)

// Contention records how the compute of the program slows down when k
// ranks run at once on this node. For each k in PPN, the rank count of the
// rerun, Regions holds each timed region's own time per unit of work over
// the same in the first rerun, and Total the mean of those ratios
// weighted by the regions' own times in the first rerun (0: none).
//
// A unit of work is an iteration of the innermost loops below the region
// that are not timed themselves (the leaves of its untimed subtree; for a
// call site of a kernel whose body is not timed, the kernel's innermost
// loops, shared among its call sites by their executions); else an
// iteration of the region's own loop; else an execution. That is the same
// work at every k: a nest or kernel that handles 1/k of the data per rank
// runs 1/k of its innermost iterations, while an outer iteration of a
// distributed nest (a block of rows) shrinks with k. The prediction scales
// the same quantity (docs/prediction.md). The counts come from a counting
// run at each k, the times from a timed run.
//
// The k ranks are goroutines of one process (the default mpi backend), so
// they share the node's caches and memory bus as k MPI processes would;
// they do not pay separate address spaces. See docs/profiler.md.
//
// Lengths holds, for each timed library call site costed by the lengths
// of its arguments, the mean length per call at each k (0: not called):
// the runs are the program at k ranks, so this is how a rank's share of
// the data shrinks (or not) with the rank count, which the prediction
// assumes where it cannot know the length (a buffer sized by received
// counts).
//
// Trips holds, for each loop, its mean iterations per entry at each k (0:
// not entered): how a loop that exits on data (a merge of what a partner
// sent) shortens or not with the rank count.
//
// RankTrips holds, for each loop whose count is not known at its entry,
// its mean iterations per entry on each rank of the run at each k (an
// empty row where the run has none): where the data gathers on some
// ranks (particles a field pulls to the middle slabs) their counts are
// larger than the mean over the ranks.
type Contention struct {
	PPN       []int                  `json:"ppn"`
	Total     []float64              `json:"total"`
	Regions   map[string][]float64   `json:"regions"`
	Lengths   map[string][]float64   `json:"lengths,omitempty"`
	Trips     map[string][]float64   `json:"trips,omitempty"`
	RankTrips map[string][][]float64 `json:"rankTrips,omitempty"`
}

// add appends the slowdowns of run a against base.
func (c *Contention) add(base, a *aggregator) {
	for _, r := range base.in.Regions {
		k := r.Index
		if r.Kind == Loop {
			appendMean(&c.Trips, r.ID, a.rc(k).Iters, a.rc(k).Execs)
			c.appendRankTrips(r.ID, a.rc(k).RankTrips)
		}
		if !base.plan.timed[k] {
			continue
		}
		c.Regions[r.ID] = append(c.Regions[r.ID], slowdown(base, a, k, c.PPN[len(c.Regions[r.ID])]))
		if r.units {
			appendMean(&c.Lengths, r.ID, a.rc(k).Iters, a.execs[k])
		}
	}
	c.Total = append(c.Total, c.weightedTotal(base, len(c.Total)))
}

// weightedTotal is the mean of the regions' slowdowns at PPN[i],
// weighted by their own times in run base (0 without any).
func (c *Contention) weightedTotal(base *aggregator, i int) float64 {
	var sumA, sumB float64
	for _, r := range base.in.Regions {
		k := r.Index
		if !base.plan.timed[k] {
			continue
		}
		// A library call's data-driven slowdown (maxDataSlowdown) is
		// its own, not the node's sharing of its cores.
		if s := c.Regions[r.ID][i]; s > 0 && s <= maxSlowdown*float64(c.PPN[i]) {
			sumA += s * base.own[k]
			sumB += base.own[k]
		}
	}
	if sumB > 0 {
		return sumA / sumB
	}
	return 0
}

// slowdown is timed region k's own time per unit of work in run a over
// the same in run base (0: either did none, or the ratio is not a
// slowdown of compute). Both runs count the same unit: where one had
// inner loops' iterations and the other none of them (a search loop that
// finds its place at once with one rank), both count the region's own
// (ownUnitsOf). A slowdown beyond maxSlowdown per rank of the run is
// not compute sharing a node but work the units do not see, and is left
// to the machine's table; ranks is run a's rank count.
func slowdown(base, a *aggregator, k, ranks int) float64 {
	wb, wa := base.workUnits()[k], a.workUnits()[k]
	if base.ownUnit(k) != a.ownUnit(k) {
		wb, wa = ownUnitsOf(base, k), ownUnitsOf(a, k)
	}
	if !(wb > 0 && wa > 0 && base.own[k] > 0 && a.own[k] > 0) {
		return 0
	}
	s := (a.own[k] / wa) / (base.own[k] / wb)
	limit := maxSlowdown
	if base.in.Regions[k].units {
		limit = maxDataSlowdown
	}
	if s > limit*float64(max(ranks, 1)) {
		return 0
	}
	return s
}

// maxDataSlowdown is maxSlowdown for a library call costed by the
// lengths of its arguments (a sort's n log2 n): its cost per element
// follows its data, which the ranks' exchanges change. A sort of what an
// Alltoallv delivered had sorted data at one rank (pdqsort's linear
// pass, 1.2 ns per element) and two interleaved runs at two, 27 times as
// long per n log2 n unit, the 2-rank run's measurement the prediction
// needs (docs/validation/outside-2026-11-28m, repro-sortruns); a sort's
// best case against its worst is at most about log2 n per unit.
const maxDataSlowdown = 64.0

// maxSlowdown bounds a region's slowdown per rank sharing the node: the
// ranks of a node share its cores, caches and memory, which slows each
// by a small factor (the examples' read 1.0-1.5 at two ranks), never by
// hundreds of thousands (a samplesort's splitter search, whose inner
// loop ran no iteration with one rank and a handful with two, read
// 650,000 before the units were made the same).
const maxSlowdown = 4.0

// ownUnit reports whether timed region k's units in g's run are its own
// iterations or executions (countWorkUnits' fallback).
func (g *aggregator) ownUnit(k int) bool { return k < len(g.ownUnits) && g.ownUnits[k] }

// ownUnitsOf is timed region k's work counted in its own iterations (a
// loop's, a copy's elements copied), the elements of a library call's
// arguments (n log2 n of them for a sort, n the mean per call, as the
// prediction charges it), or its executions.
func ownUnitsOf(g *aggregator, k int) float64 {
	r := g.in.Regions[k]
	switch {
	case r.Kind == Loop || r.Kind == Copy:
		return float64(g.rc(k).Iters)
	case r.units && g.rc(k).Iters > 0:
		return LibraryUnits(calleeName(r.callee), g.rc(k).Iters, g.execs[k])
	}
	return float64(g.execs[k])
}

// pair lowers the slowdowns of the rank counts after the first, which
// add took from each count's fastest run, to the median over the rounds
// of the slowdown within a round where that is lower: rounds[j][i] is
// round j's run at PPN[i]. Both only err high. The fastest one-rank run
// may come from a fast mode the two-rank runs never get (transpose's
// fastest over fastest read 1.06-1.32 for two ranks, its runs at two
// ranks 1.9 times as fast as at one: about 1.05), which the runs of one
// round, a few milliseconds apart, share; a slow spell over most rounds
// moves the median (cg's read 1.45 once), and a single fast round then
// still gives add's ratio. The totals are weighted by the first count's
// fastest run, as add's.
func (c *Contention) pair(base *aggregator, rounds [][]*aggregator) {
	for i := 1; i < len(c.PPN); i++ {
		for _, r := range base.in.Regions {
			k := r.Index
			if !base.plan.timed[k] {
				continue
			}
			var each []float64
			for _, round := range rounds {
				if s := slowdown(round[0], round[i], k, c.PPN[i]); s > 0 {
					each = append(each, s)
				}
			}
			if len(each) == 0 {
				continue
			}
			// add's, fastest over fastest, unless the rounds' is lower.
			if m, s := median(each), c.Regions[r.ID][i]; s <= 0 || m < s {
				c.Regions[r.ID][i] = m
			}
		}
		c.Total[i] = c.weightedTotal(base, i)
	}
}

// appendMean appends to region id's row of *rows (made if nil) the mean
// sum/n, 0 when either is not positive (not run there).
// appendRankTrips appends loop id's means per entry on each rank of the
// next run (none: an empty row), keeping the row of every earlier run.
func (c *Contention) appendRankTrips(id string, ranks []probe.TripCounts) {
	rows := c.RankTrips[id]
	if len(ranks) == 0 && rows == nil {
		return // none so far: no rows at all
	}
	// The probe's list ends with the last rank that entered the loop.
	row := []float64{}
	if len(ranks) > 0 {
		row = make([]float64, max(len(ranks), c.PPN[len(c.Trips[id])-1]))
	}
	for i, t := range ranks {
		if t.Entries > 0 {
			row[i] = float64(t.Iters) / float64(t.Entries)
		}
	}
	if c.RankTrips == nil {
		c.RankTrips = map[string][][]float64{}
	}
	// Runs before the first that had them: empty rows.
	for len(rows) < len(c.Trips[id])-1 {
		rows = append(rows, []float64{})
	}
	c.RankTrips[id] = append(rows, row)
}

func appendMean(rows *map[string][]float64, id string, sum, n int64) {
	mean := 0.0
	if sum > 0 && n > 0 {
		mean = float64(sum) / float64(n)
	}
	if *rows == nil {
		*rows = map[string][]float64{}
	}
	(*rows)[id] = append((*rows)[id], mean)
}

// workUnits returns, per timed region, the units of work its own time is
// spent on in the run of g (see Contention); 0 for untimed regions.
func (g *aggregator) workUnits() []float64 {
	if g.units == nil {
		g.units, g.ownUnits = countWorkUnits(g)
	}
	return g.units
}

func countWorkUnits(g *aggregator) ([]float64, []bool) {
	in, plan := g.in, g.plan
	n := len(in.Regions)
	// An untimed loop is a leaf unless an untimed loop lies below it
	// before a timed region does.
	inner := make([]bool, n)
	for _, r := range in.Regions {
		if r.Kind != Loop || plan.timed[r.Index] {
			continue
		}
		for p := r.Parent; p >= 0 && !plan.timed[p]; p = in.Regions[p].Parent {
			if in.Regions[p].Kind == Loop {
				inner[p] = true
			}
		}
	}
	units := make([]float64, n)
	// Iterations of the leaves of each untimed function, by kernelKey:
	// a declared function's full name or a function literal.
	kernel := map[any]float64{}
	kernelDecl := map[string]*types.Func{}
	var litLoops []*region
	for _, r := range in.Regions {
		k := r.Index
		if r.Kind != Loop || plan.timed[k] || inner[k] {
			continue
		}
		it := float64(g.rc(k).Iters)
		switch t := g.ta[k]; {
		case r.fnLit != nil:
			// A literal's loops run where it is called, not where it is
			// written (its static ancestors)...
			kernel[r.fnLit] += it
			litLoops = append(litLoops, r)
		case t >= 0:
			units[t] += it
		case r.decl != nil:
			kernel[r.decl.FullName()] += it
			kernelDecl[r.decl.FullName()] = r.decl
		}
	}
	// A call site of a kernel whose body is untimed does the kernel's
	// leaf iterations, in the share of its executions among the kernel's
	// call sites (a recursive function's calls of itself are inside its
	// outer sites: not sites of their own).
	siteExecs := map[any]float64{}
	for _, r := range in.Regions {
		if key := kernelKey(r); key != nil && !recursive(r) {
			siteExecs[key] += float64(g.execs[r.Index])
		}
	}
	// A declared kernel that no known site calls ran from calls through a
	// function value or an interface the syntax does not resolve
	// (apply(work, n); an interface that several types implement): its
	// iterations are the work of the dynamic sites of its signature, in
	// the share of their executions (those inside a timed region do it
	// for that region).
	var dynSites []*region
	for _, r := range in.Regions {
		if r.Kind == Call && r.dynSig != nil && g.execs[r.Index] > 0 && (plan.timed[r.Index] || g.ta[r.Index] >= 0) {
			dynSites = append(dynSites, r)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(kernelDecl)) {
		f := kernelDecl[name]
		if siteExecs[name] > 0 {
			continue
		}
		var match []*region
		e := 0.0
		for _, r := range dynSites {
			if sameParams(r.dynSig, f.Type().(*types.Signature)) {
				match = append(match, r)
				e += float64(g.execs[r.Index])
			}
		}
		for _, r := range match {
			to := r.Index
			if !plan.timed[to] {
				to = g.ta[to]
			}
			units[to] += kernel[name] * float64(g.execs[r.Index]) / e
		}
	}
	// A literal's loops with no known call of it (a literal given to a library,
	// slices.SortFunc(xs, func...)) run where it is written, as the most
	// likely place.
	for _, r := range litLoops {
		if t := g.ta[r.Index]; t >= 0 && siteExecs[r.fnLit] == 0 {
			units[t] += float64(g.rc(r.Index).Iters)
		}
	}
	// An untimed call site of such a kernel inside a timed region (a
	// quadratic kernel called per particle from a timed loop) does them
	// for that region: its own iterations are not the work when the
	// kernel's loop follows the rank's share too.
	for _, r := range in.Regions {
		k := r.Index
		key := kernelKey(r)
		if key == nil || recursive(r) || plan.timed[k] || g.ta[k] < 0 {
			continue
		}
		if it, e := kernel[key], siteExecs[key]; it > 0 && e > 0 {
			units[g.ta[k]] += it * float64(g.execs[k]) / e
		}
	}
	own := make([]bool, n)
	for _, r := range in.Regions {
		k := r.Index
		if !plan.timed[k] {
			continue
		}
		if key := kernelKey(r); key != nil && !recursive(r) && units[k] == 0 {
			if it, e := kernel[key], siteExecs[key]; it > 0 && e > 0 {
				units[k] = it * float64(g.execs[k]) / e
			}
		}
		if units[k] == 0 {
			own[k], units[k] = true, ownUnitsOf(g, k)
		}
	}
	return units, own
}

// kernelKey names the function a call region calls, as countWorkUnits
// keys kernels: a declared function's full name, or the function literal
// a dynamic call calls (region.target); nil for other regions.
func kernelKey(r *region) any {
	if lit, ok := r.target.(*ast.FuncLit); ok && r.Kind == Call {
		return lit
	}
	if f := calleeOf(r); f != nil {
		return f.FullName()
	}
	return nil
}

// recursive reports whether call region r is in the function it calls.
func recursive(r *region) bool {
	key := kernelKey(r)
	if lit, ok := key.(*ast.FuncLit); ok {
		return r.fnLit == lit
	}
	return key != nil && r.fnLit == nil && r.decl != nil && r.decl.FullName() == key
}

// sameParams reports whether a function of signature f can be called
// through a value or interface method of signature call: the same
// parameters and results, f's receiver aside.
func sameParams(call, f *types.Signature) bool {
	return types.Identical(types.NewSignatureType(nil, nil, nil, call.Params(), call.Results(), call.Variadic()),
		types.NewSignatureType(nil, nil, nil, f.Params(), f.Results(), f.Variadic()))
}
