package profiler

import (
	"bytes"
	"go/types"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/parpredict/parpredict/mpi"
	"github.com/parpredict/parpredict/profiler/probe"
)

// measured is the raw outcome of one timed run.
type measured struct {
	counts *probe.Counts
	trace  *mpi.Trace
	np     int
	wallNs float64
	// vecRuns holds, per loop, the per-iteration minimum times of every
	// repeated run (nil: only counts' own).
	vecRuns map[int][][]int64
}

// aggregator turns raw counters into per-region numbers.
type aggregator struct {
	in    *Instrumented
	plan  timerPlan
	m     measured
	costs probe.Costs
	root  string // module root, for relative paths

	ta      []int     // nearest timed static ancestor, -1 if none
	execs   []int64   // executions, with untimed bodies counted at their sites
	mpiNs   []float64 // MPI time directly in each timed region
	recNs   []float64 // the mpi trace's recording of the MPI calls directly in each timed region
	sites   []MPISite
	own     []float64
	totalNs []float64 // timed regions' time, of the run own comes from
	probeNs float64
	units   []float64 // workUnits, once computed
	// ownUnits marks the timed regions whose units are their own
	// iterations or executions, not inner loops' or kernels' iterations
	// (countWorkUnits' fallback, where those did none).
	ownUnits []bool
}

func (a *aggregator) rc(k int) probe.RegionCounts {
	if k < len(a.m.counts.Regions) {
		return a.m.counts.Regions[k]
	}
	return probe.RegionCounts{}
}

func (a *aggregator) run() {
	n := len(a.in.Regions)
	a.ta, a.execs, a.mpiNs, a.own = make([]int, n), make([]int64, n), make([]float64, n), make([]float64, n)
	a.recNs = make([]float64, n)
	a.totalNs = make([]float64, n)
	for _, r := range a.in.Regions {
		a.ta[r.Index] = -1
		for p := r.Parent; p >= 0; p = a.in.Regions[p].Parent {
			if a.plan.timed[p] {
				a.ta[r.Index] = p
				break
			}
		}
		a.execs[r.Index] = a.rc(r.Index).Execs
		a.totalNs[r.Index] = float64(a.rc(r.Index).Ns)
	}
	for _, r := range a.in.Regions {
		if r.Kind == FuncBody && !a.plan.timed[r.Index] && r.declBody {
			if u := a.in.uses[r.decl]; u != nil {
				for _, s := range u.sites {
					if s >= 0 {
						a.execs[r.Index] += a.execs[s]
					}
				}
			}
		}
	}
	for _, r := range a.in.Regions {
		if r.noProbe {
			n := a.rc(r.derivedFrom).Iters
			if r.derivedMinus >= 0 {
				n -= a.execs[r.derivedMinus]
			}
			a.execs[r.Index] = n
		}
	}
	a.attributeMPI()
	a.ownTimes()
}

// attributeMPI sums the trace per call site and gives each site to the
// innermost timed region whose lines hold it, with the time the trace
// spent recording its calls (each recorded call's own, not weighted: only
// the recorded calls paid it).
func (a *aggregator) attributeMPI() {
	type key struct{ site, op string }
	type siteSum struct {
		MPISite
		recNs float64
	}
	sum := map[key]*siteSum{}
	if a.m.trace != nil {
		for _, rk := range a.m.trace.Ranks {
			for _, e := range rk.Events {
				if e.Op == "BeginInterval" || e.Op == "EndInterval" {
					continue
				}
				s := sum[key{e.Site, e.Op}]
				if s == nil {
					s = &siteSum{MPISite: MPISite{Site: e.Site, Op: e.Op}}
					sum[key{e.Site, e.Op}] = s
				}
				w := max(e.W, 1) // a sampled trace's event stands for W calls
				s.Calls += int64(w)
				s.Bytes += int64(w) * int64(e.Bytes)
				s.TotalNs += float64(w) * (e.T1 - e.T0) * 1e9
				s.recNs += e.Rec * 1e9
			}
		}
	}
	if a.m.trace != nil {
		for k, data := range agreedValues(a.m.trace) {
			if s := sum[key(k)]; s != nil {
				s.Data = data
			}
		}
	}
	for _, s := range sum {
		if k := a.regionAt(s.Site); k >= 0 {
			s.Region = a.in.Regions[k].ID
			a.mpiNs[k] += s.TotalNs
			a.recNs[k] += s.recNs
		}
		a.sites = append(a.sites, s.MPISite)
	}
	sortSites(a.sites)
}

// sortSites orders MPI call sites as the profile lists them: by site,
// then operation.
func sortSites(sites []MPISite) {
	sort.Slice(sites, func(i, j int) bool {
		if sites[i].Site != sites[j].Site {
			return sites[i].Site < sites[j].Site
		}
		return sites[i].Op < sites[j].Op
	})
}

// regionAt finds the innermost timed region holding site "file.go:line".
func (a *aggregator) regionAt(site string) int {
	i := strings.LastIndex(site, ":")
	if i < 0 {
		return -1
	}
	line, err := strconv.Atoi(site[i+1:])
	if err != nil {
		return -1
	}
	best, bestSpan := -1, math.MaxInt
	for _, r := range a.in.Regions {
		// A call timed in place shares its line with the statement's
		// other calls, which run outside its timer, unless they are in
		// its arguments (r.mpiArgs; the later, inner region wins a tie).
		if !a.plan.timed[r.Index] || (r.inline && !r.mpiArgs) || filepath.Base(r.File) != site[:i] || line < r.Line || line > r.End {
			continue
		}
		if span := r.End - r.Line; span < bestSpan || (span == bestSpan && r.Index > best) {
			best, bestSpan = r.Index, span
		}
	}
	return best
}

// ownTimes computes, for each timed region, its time less its timed
// children, its MPI calls and the cost of the timers inside it. Untimed
// counters are not subtracted: an increment of a local variable mostly
// hides in the work around it, and a calibrated cost in a tight loop
// overstates it several times (docs/profiler.md). A timed call
// site's children are its callee's body, shared among the sites by their
// times; a rank body counts 1/np in its parent, whose single interval the
// ranks overlap.
func (a *aggregator) ownTimes() {
	siteNs := map[int]float64{} // body region -> total time of its call sites
	body := map[string]int{}    // callee full name -> timed body region
	for _, r := range a.in.Regions {
		if r.declBody && r.decl != nil && a.plan.timed[r.Index] {
			body[r.decl.FullName()] = r.Index
		}
	}
	for _, r := range a.in.Regions {
		if f := calleeOf(r); f != nil && a.plan.timed[r.Index] {
			if b, ok := body[f.FullName()]; ok {
				siteNs[b] += float64(a.rc(r.Index).Ns)
			}
		}
	}
	c := a.costs
	for _, r := range a.in.Regions {
		k := r.Index
		if a.plan.timed[k] {
			a.own[k] += float64(a.rc(k).Ns) - a.mpiNs[k]
			a.sub(k, a.recNs[k])
			if isEntry(r) && r.decl.Name() == "main" {
				a.sub(k, float64(a.m.counts.TraceNs))
			}
			if a.plan.vec[k] && !a.plan.apart[k] {
				a.sub(k, float64(a.rc(k).Iters)*c.Tick)
			}
			if f := calleeOf(r); f != nil {
				if b, ok := body[f.FullName()]; ok && siteNs[b] > 0 {
					share := float64(a.rc(k).Ns) / siteNs[b]
					a.own[k] -= share * float64(a.rc(b).Ns)
					a.sub(k, share*float64(a.execs[b])*c.Body)
				}
			}
		}
		p := a.ta[k]
		if p < 0 || !a.plan.timed[k] {
			continue
		}
		{
			t := float64(a.rc(k).Ns)
			if r.rank {
				t /= float64(max(a.m.np, 1))
			}
			a.own[p] -= t
			cost := c.Timer
			switch r.Kind {
			case FuncBody:
				cost = c.Body
			case Loop, Copy:
				cost = c.Loop
			}
			a.sub(p, float64(a.execs[k])*cost)
			if a.plan.vec[k] && !a.plan.apart[k] {
				// The loop's vector recorder, taken and handed back
				// around its timer.
				a.sub(p, float64(a.execs[k])*c.VecEntry+float64(a.rc(k).Iters)*c.VecElem)
			}
		}
	}
}

// fastestRuns replaces each timed region's own and MPI times by those of
// the run that timed the region fastest, among runs that executed it as
// often. Other processes on the machine only ever add time, each at a
// different moment of each run, so a region's shortest time is its least
// disturbed; its own time comes from the same run, so that it is
// consistent with it (own = time - timed children - MPI, in that run).
func (a *aggregator) fastestRuns(runs []*measured) {
	best := make([]float64, len(a.in.Regions))
	for k := range best {
		best[k] = float64(a.rc(k).Ns)
	}
	for _, m := range runs {
		o := &aggregator{in: a.in, plan: a.plan, m: *m, costs: a.costs}
		o.run()
		for _, r := range a.in.Regions {
			k := r.Index
			mine, theirs := a.rc(k), o.rc(k)
			if !a.plan.timed[k] || theirs.Execs != mine.Execs || theirs.Iters != mine.Iters || theirs.Ns <= 0 || float64(theirs.Ns) >= best[k] {
				continue
			}
			best[k] = float64(theirs.Ns)
			a.own[k], a.mpiNs[k], a.totalNs[k] = o.own[k], o.mpiNs[k], float64(theirs.Ns)
		}
	}
}

func (a *aggregator) sub(k int, ns float64) {
	a.own[k] -= ns
	a.probeNs += ns
}

// regions builds the profile's region list.
func (a *aggregator) regions() []Region {
	out := make([]Region, 0, len(a.in.Regions))
	for _, r := range a.in.Regions {
		k := r.Index
		rc := a.rc(k)
		g := Region{
			ID: r.ID, Kind: r.Kind, Func: r.Func, File: relPath(a.root, r.File), Line: r.Line,
			Timed: a.plan.timed[k], Execs: a.execs[k], Rank: r.rank,
		}
		if r.Parent >= 0 {
			g.Parent = a.in.Regions[r.Parent].ID
		}
		if g.Timed {
			g.TotalNs = a.totalNs[k]
			g.OwnNs = a.own[k]
			g.MPINs = a.mpiNs[k]
			if g.Execs > 0 {
				g.OwnPerExecNs = g.OwnNs / float64(g.Execs)
			}
		} else if p := a.ta[k]; p >= 0 {
			g.FoldedInto = a.in.Regions[p].ID
		}
		if r.Kind == Loop || r.Kind == Copy || r.units {
			// A copy's: the elements it copied; a library call's: the
			// lengths of its arguments (argUnits).
			g.Iters = rc.Iters
			if g.Timed && rc.Iters > 0 {
				g.OwnPerIterNs = g.OwnNs / float64(rc.Iters)
			}
		}
		switch r.Kind {
		case Loop:
			if rc.Execs > 0 {
				g.Trips = tripStats(rc.Execs, rc.Iters, rc.SqIter, rc.MinIter, rc.MaxIter)
			}
			for _, t := range rc.RankTrips {
				s := Trips{}
				if t.Entries > 0 {
					s = *tripStats(t.Entries, t.Iters, t.SqIter, t.MinIter, t.MaxIter)
				}
				g.RankTrips = append(g.RankTrips, s)
			}
			if a.plan.vec[k] {
				runs := a.m.vecRuns[k]
				if v := entryMeans(rc); len(runs) == 0 && len(v) > 0 {
					runs = [][]int64{v}
				}
				if g.Imbalance = imbalance(runs, a.costs.Tick); g.Imbalance != nil {
					g.Imbalance.Fine = a.plan.fine[k]
				}
			}
		case Call:
			g.Callee, g.Library = calleeName(calleeOf(r)), r.lib
		}
		out = append(out, g)
	}
	a.armProbabilities(out)
	return out
}

// armProbabilities sets the share of then and else arms of every if, and
// of the outcomes of every test of a compound loop condition.
func (a *aggregator) armProbabilities(out []Region) {
	pair := map[Kind]Kind{ThenArm: ElseArm, TestTrue: TestFalse}
	for i, r := range a.in.Regions {
		other, ok := pair[r.Kind]
		if !ok {
			continue
		}
		for j := i + 1; j < len(a.in.Regions); j++ {
			e := a.in.Regions[j]
			if e.Kind == other && e.Node == r.Node {
				total := out[i].Execs + out[j].Execs
				if total > 0 {
					pt := float64(out[i].Execs) / float64(total)
					pe := 1 - pt
					out[i].Prob, out[j].Prob = &pt, &pe
				}
				break
			}
		}
	}
}

// entryMeans is a run's time of each iteration ordinal of a loop, the
// mean over the entries that reached it. Not the fastest entry's: a loop
// entered over whole rows and over one column of the same rows (a
// block's interior, then its edges) had the vector of the one-column
// entries, whose shape need not be the rows' (the column may miss the
// dear part of a row) and whose magnitude is a row's hundredth.
func entryMeans(rc probe.RegionCounts) []int64 {
	if len(rc.VecNs) == 0 || len(rc.VecNs) != len(rc.VecCnt) {
		return nil
	}
	out := make([]int64, len(rc.VecNs))
	for i, ns := range rc.VecNs {
		if rc.VecCnt[i] == 0 {
			return out[:i]
		}
		out[i] = (ns + rc.VecCnt[i]/2) / rc.VecCnt[i]
	}
	return out
}

// trimShare is the share of largest deviations the balance test leaves out.
const trimShare = 0.02

// imbalance applies the ParJava balance test to the per-iteration times
// of one or more runs (each already the mean over the loop's entries,
// entryMeans).
//
// Other processes on the machine slow down stretches of iterations at
// random; a real imbalance shows in every run. So the time of iteration i
// is its minimum over runs, and its deviation counts only as far as all
// runs agree: the deviation of iteration i from its run's median, taken
// as the smallest over runs when they all have the same sign, else none.
// (The median, not the mean, is the reference within a run, so that a
// disturbed stretch does not shift every other iteration's deviation.)
// With one run this is the paper's D = max |T_body(i) - T_mean|, up to
// median for mean. The largest 2 % of deviations (cold-cache first
// iterations) are left out, none below 50 iterations.
func imbalance(runs [][]int64, tick float64) *Imbalance {
	n := 0
	for _, r := range runs {
		if n == 0 || len(r) < n {
			n = len(r)
		}
	}
	if n == 0 {
		return nil
	}
	times := make([][]float64, len(runs))
	refs := make([]float64, len(runs))
	iter := make([]float64, n)
	for ri, r := range runs {
		times[ri] = make([]float64, n)
		for i := range n {
			t := max(float64(r[i])-tick, 0)
			times[ri][i] = t
			if ri == 0 || t < iter[i] {
				iter[i] = t
			}
		}
		refs[ri] = median(times[ri])
	}
	// A tenth of a nanosecond is below any timer's resolution, and keeps
	// the vector of a loop of fine iterations (hundreds of thousands of
	// entries) a few bytes per entry in the profile file.
	for i, t := range iter {
		iter[i] = math.Round(t*10) / 10
	}
	mean := 0.0
	for _, t := range iter {
		mean += t / float64(n)
	}
	// The largest raw deviations (a cold first iteration) are left out
	// before any smoothing, which would otherwise spread each over a
	// window of its neighbours.
	trim := int(float64(n) * trimShare)
	dev := agreedDeviations(times, refs, nil)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return dev[order[a]] > dev[order[b]] })
	kept := make([]bool, n)
	for _, i := range order[trim:] {
		kept[i] = true
	}
	// The balance test is about how blocks of iterations differ: a rank
	// gets a block. Variation from one iteration to the next that evens
	// out over a few (every other row touching a new page of a freshly
	// allocated matrix) does not unbalance any distribution, so the
	// deviations are those of a moving mean over smoothWidth iterations.
	if n >= 8*smoothWidth {
		// Each run's reference is the median of its smoothed times: a
		// short disturbance that recurs every few iterations (a timer tick
		// each millisecond) lifts every window a little, and must not
		// count as a deviation of all of them.
		smooth := make([][]float64, len(times))
		smoothRefs := make([]float64, len(times))
		for ri := range times {
			smooth[ri] = movingMean(times[ri], kept, smoothWidth)
			smoothRefs[ri] = median(smooth[ri])
		}
		dev = agreedDeviations(smooth, smoothRefs, kept)
	}
	d := 0.0
	for i, k := range kept {
		if k {
			d = max(d, dev[i])
		}
	}
	im := &Imbalance{TMeanNs: mean, DNs: d, Trimmed: trim, Runs: len(runs), IterNs: iter}
	if mean > 0 {
		im.Ratio = d / mean
	}
	im.Balanced = d <= 0.1*mean
	return im
}

// smoothWidth is the window of the moving mean the balance test applies
// to per-iteration times of loops with enough iterations.
const smoothWidth = 8

// movingMean is the mean of the kept values of xs over a window of w
// positions around each (shorter at the ends).
func movingMean(xs []float64, kept []bool, w int) []float64 {
	sum := make([]float64, len(xs)+1)
	cnt := make([]int, len(xs)+1)
	for i, x := range xs {
		sum[i+1], cnt[i+1] = sum[i], cnt[i]
		if kept[i] {
			sum[i+1] += x
			cnt[i+1]++
		}
	}
	out := make([]float64, len(xs))
	for i := range xs {
		lo, hi := max(i-w/2, 0), min(i-w/2+w, len(xs))
		if c := cnt[hi] - cnt[lo]; c > 0 {
			out[i] = (sum[hi] - sum[lo]) / float64(c)
		} else {
			out[i] = xs[i]
		}
	}
	return out
}

// agreedDeviations is, per iteration, its deviation from its run's
// reference as far as all runs agree: the smallest over runs when every
// run deviates the same way, else 0. Iterations not kept (when kept is
// given) get 0.
func agreedDeviations(times [][]float64, refs []float64, kept []bool) []float64 {
	n := len(times[0])
	dev := make([]float64, n)
	for i := range n {
		if kept != nil && !kept[i] {
			continue
		}
		agreed, sign := math.Inf(1), 0.0
		for ri := range times {
			d := times[ri][i] - refs[ri]
			if ri == 0 {
				sign = math.Copysign(1, d)
			} else if math.Copysign(1, d) != sign {
				agreed = 0
				break
			}
			agreed = min(agreed, math.Abs(d))
		}
		dev[i] = agreed
	}
	return dev
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (a *aggregator) totals() Totals {
	t := Totals{WallNs: a.m.wallNs, ProbeCostNs: a.probeNs}
	for _, r := range a.in.Regions {
		if !a.plan.timed[r.Index] {
			t.CountedRegion++
			continue
		}
		t.TimedRegions++
		t.OwnNs += a.own[r.Index]
		t.MPINs += a.mpiNs[r.Index]
		if isEntry(r) && r.decl.Name() == "main" {
			t.MainNs = a.totalNs[r.Index]
		}
	}
	t.AccountedNs = t.OwnNs + t.MPINs
	return t
}

// tripStats are the statistics of entries entries of a loop that ran iters
// iterations in all, sq their squares summed, between lo and hi.
func tripStats(entries, iters, sq, lo, hi int64) *Trips {
	mean := float64(iters) / float64(entries)
	v := float64(sq)/float64(entries) - mean*mean
	return &Trips{Min: lo, Max: hi, Mean: mean, Std: math.Sqrt(max(v, 0))}
}

// calleeOf is the function call region r calls: its static callee, or
// the one method of the program an interface call can reach
// (region.target); nil if unknown or r is no call.
func calleeOf(r *region) *types.Func {
	if r.Kind != Call {
		return nil
	}
	if r.callee != nil {
		return r.callee
	}
	f, _ := r.target.(*types.Func)
	return f
}

// siteOp names an MPI call site and its operation.
type siteOp struct{ site, op string }

// agreedValues are the Bcast payloads of the trace's call sites that
// every rank kept (mpi.SiteValues: each of its calls there carried the
// same bytes), with the same bytes on every rank.
func agreedValues(tr *mpi.Trace) map[siteOp][]byte {
	seen := map[siteOp]int{}
	data := map[siteOp][]byte{}
	for _, rk := range tr.Ranks {
		for _, v := range rk.Values {
			k := siteOp{v.Site, v.Op}
			switch d, ok := data[k]; {
			case !ok:
				data[k] = v.Data
			case d != nil && !bytes.Equal(d, v.Data):
				data[k] = nil
			}
			seen[k]++
		}
	}
	out := map[siteOp][]byte{}
	for k, d := range data {
		if d != nil && seen[k] == len(tr.Ranks) {
			out[k] = d
		}
	}
	return out
}
