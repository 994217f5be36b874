package prediction

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/profiler"
	"golang.org/x/tools/go/ssa"
)

// minShare is the share of the program's own time under which a region's
// own slowdown is not used: its time is too short to time apart from the
// noise, and the program's mean stands in for it (unless its slowdown
// gives it that share at k ranks, see regions).
const minShare = 0.01

// nodeContention is how compute slows down when k ranks compute at once on
// one node. With contention runs in the profile (predict profile --ppn
// 1,2,...) it is each region's own slowdown, which a memory-bound stencil
// and a cache-resident kernel do not share (ParJava's per-region node
// contention); a region with little own time takes the program's mean.
// Past the largest k the runs measured, the machine's compute_slowdown
// table gives the further growth; without runs, the table alone.
type nodeContention struct {
	m     *commmodel.Machine
	c     *profiler.Contention // nil: no usable contention runs
	share map[string]float64   // region -> its share of the program's own time
	maxK  int
	// covered is the share of the program's own time in regions that the
	// contention runs measured at every k.
	covered float64
	// lengths and trips are the runs' lengths per call of library call
	// sites and trips per entry of loops at their rank counts runPPN
	// (profiler.Contention.Lengths, Trips), used whatever covered is.
	lengths, trips map[string][]float64
	runPPN         []int
	// rankTrips are the runs' trips per entry on each of their ranks
	// (profiler.Contention.RankTrips).
	rankTrips map[string][][]float64
	// filled are the regions the profiled run never reached, whose
	// numbers come from the contention run with that many ranks
	// (profiler.Region.Ranks): measured with that run's contention in
	// them already.
	filled map[string]int
}

// nodeContention returns the node contention of o's program on machine m.
func (o *Oracle) nodeContention(m *commmodel.Machine) *nodeContention {
	if o.contention == nil || o.contention.m != m {
		o.contention = newNodeContention(m, o.prof)
	}
	return o.contention
}

func newNodeContention(m *commmodel.Machine, prof *profiler.Profile) *nodeContention {
	n := &nodeContention{m: m, share: map[string]float64{}, filled: map[string]int{}}
	for i := range prof.Regions {
		if r := &prof.Regions[i]; r.Ranks > 0 {
			n.filled[r.ID] = r.Ranks
		}
	}
	c := prof.Contention
	if c == nil || len(c.PPN) < 2 || c.PPN[0] != 1 || !slices.IsSorted(c.PPN) || len(c.Total) != len(c.PPN) {
		return n
	}
	n.lengths, n.trips, n.runPPN, n.rankTrips = c.Lengths, c.Trips, c.PPN, c.RankTrips
	// Shares of the profiled run's own time: regions it never reached
	// (numbers from a contention run, Ranks) have none.
	total := 0.0
	for i := range prof.Regions {
		if r := &prof.Regions[i]; r.Timed && r.OwnNs > 0 && r.Ranks == 0 {
			total += r.OwnNs
		}
	}
	for i := range prof.Regions {
		if r := &prof.Regions[i]; r.Timed && r.OwnNs > 0 && r.Ranks == 0 && total > 0 {
			n.share[r.ID] = r.OwnNs / total
		}
	}
	// Runs in which most of the compute did not happen say nothing about
	// it: a ping-pong profiled with 2 ranks does not exchange in the run
	// with 1, whose ratios are the base. Then the machine's table stands
	// for every region.
	for id, sh := range n.share {
		if measuredAll(c.Regions[id]) {
			n.covered += sh
		}
	}
	if n.covered < minCovered {
		return n
	}
	n.c, n.maxK = c, c.PPN[len(c.PPN)-1]
	return n
}

// minCovered is the share of the program's own time that the regions
// measured at every k of the contention runs must have for the runs to
// be used.
const minCovered = 0.5

// measuredAll says whether a region's ratios are there at every k.
func measuredAll(vals []float64) bool {
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !(v > 0) {
			return false
		}
	}
	return true
}

// source says where the slowdowns come from, for the prediction's notes.
func (n *nodeContention) source() string {
	if n.c == nil && n.covered > 0 {
		return fmt.Sprintf("compute slowdown with the ranks on a node: machine %s's compute_slowdown table (the profile's --ppn runs measured regions with only %.0f%% of the compute at every rank count)", n.m.Name, 100*n.covered)
	}
	if n.c == nil {
		return fmt.Sprintf("compute slowdown with the ranks on a node: machine %s's compute_slowdown table (the profile has no --ppn runs)", n.m.Name)
	}
	return fmt.Sprintf("compute slowdown with the ranks on a node: each region's from the profile's --ppn runs up to %d ranks, further growth from machine %s's compute_slowdown table", n.maxK, n.m.Name)
}

// total is the program's slowdown with k ranks computing on a node.
func (n *nodeContention) total(k int) float64 {
	if n.c == nil {
		return n.m.ComputeFactor(k)
	}
	if s, ok := n.at(n.c.Total, k); ok {
		return s
	}
	return n.m.ComputeFactor(k)
}

// regions is the slowdown of compute whose time the profile has as the
// own time of the regions ids, each weighed by its own time.
func (n *nodeContention) regions(ids []string, k int) float64 {
	if n.c == nil {
		return n.m.ComputeFactor(k) / n.measuredAt(ids, n.m.ComputeFactor)
	}
	sum, weight := 0.0, 0.0
	for _, id := range ids {
		w := n.share[id]
		// A region the runs did not measure slows down as the machine's
		// table says, not as the rest of the program did.
		s, ok := n.at(n.c.Regions[id], k)
		if !ok {
			s = n.m.ComputeFactor(k)
		}
		// A region with little own time takes the program's mean, unless
		// it is a library call costed per element whose slowdown gives it
		// a fair share at k ranks: a sort of what an exchange delivered,
		// sorted data at one rank (0.3 ms of 40) and k sorted runs at k
		// (6 ms of 25), is slower per element by what its data became,
		// not by noise. (Other small regions read 5-1000 times slower at
		// k ranks in the profiles of docs/validation: start-up code.)
		if w < minShare && !(ok && w*s >= minShare && n.sized(id)) {
			continue
		}
		sum += w * s
		weight += w
	}
	if weight == 0 {
		return n.total(k) / n.measuredAt(ids, n.total)
	}
	return sum / weight
}

// measuredAt is the slowdown (by factor) that the numbers of ids hold
// already: 1, or, where none of them has time in the profiled run and one
// was filled from a contention run (code the profiled run never reached),
// that of the run the first such one's numbers come from. A merge that
// runs only with two ranks or more was timed with two ranks computing at
// once.
func (n *nodeContention) measuredAt(ids []string, factor func(int) float64) float64 {
	k0 := 0
	for _, id := range ids {
		if n.share[id] > 0 {
			return 1
		}
		if k, ok := n.filled[id]; ok && k0 == 0 {
			k0 = k
		}
	}
	if f := factor(k0); k0 > 0 && f > 0 {
		return f
	}
	return 1
}

// at is the slowdown with k ranks from one region's (or the total's)
// ratios: interpolated between the measured rank counts, grown with the
// machine's table past the largest. Not ok if a ratio it needs is
// missing (0: the region had no own time in that run).
func (n *nodeContention) at(vals []float64, k int) (float64, bool) {
	ppn := n.c.PPN
	if len(vals) != len(ppn) || k < 1 {
		return 0, false
	}
	if k >= n.maxK {
		last := vals[len(vals)-1]
		if last <= 0 {
			return 0, false
		}
		return last * n.m.ComputeFactor(k) / n.m.ComputeFactor(n.maxK), true
	}
	for i := 1; i < len(ppn); i++ {
		if k <= ppn[i] {
			a, b := vals[i-1], vals[i]
			if a <= 0 || b <= 0 {
				return 0, false
			}
			return a + (b-a)*float64(k-ppn[i-1])/float64(ppn[i]-ppn[i-1]), true
		}
	}
	return 0, false
}

// sized says whether id is a library call site costed by the lengths of
// its arguments, whose lengths the contention runs kept.
func (n *nodeContention) sized(id string) bool {
	_, ok := n.lengths[id]
	return ok
}

// length is the mean length per call that library call site id is given
// at p ranks in the contention runs (perRank).
func (n *nodeContention) length(id string, p int) (l float64, from string, ok bool) {
	return perRank(n.lengths[id], n.runPPN, p)
}

// tripMeans is loop id's mean iterations per entry at p ranks in the
// contention runs (perRank).
func (n *nodeContention) tripMeans(id string, p int) (t float64, from string, ok bool) {
	return perRank(n.trips[id], n.runPPN, p)
}

// rankSpread is how loop id's iterations per entry spread over the ranks
// of a run of p ranks, from the contention run with the most ranks in
// which every rank entered it: the run at p itself where there is one,
// else that run's ranks' means in rank order mapped onto p ranks (rank r
// of p holds [r/p, (r+1)/p) of them: block-distributed data, where the
// gathering of particles in the middle slabs seen at 8 ranks is in the
// middle ranks at 16), as shares (summing to 1) with the run's rank
// count. not ok where no run has every rank's means.
func (n *nodeContention) rankSpread(id string, p int) (shares []float64, k int, ok bool) {
	rows := n.rankTrips[id]
	best := -1
	for i, row := range rows {
		if i >= len(n.runPPN) || len(row) != n.runPPN[i] || len(row) < 2 || slices.Min(row) <= 0 {
			continue
		}
		if best < 0 || n.runPPN[i] == p || n.runPPN[best] != p {
			best = i
		}
	}
	if best < 0 || p < 1 {
		return nil, 0, false
	}
	row, k := rows[best], n.runPPN[best]
	sum := 0.0
	for _, v := range row {
		sum += v
	}
	shares = make([]float64, p)
	for r := range shares {
		// Rank r of p covers [r*k, (r+1)*k) in units of 1/(p*k); rank j
		// of the run covers [j*p, (j+1)*p).
		lo, hi := r*k, (r+1)*k
		for j := lo / p; j < len(row) && j*p < hi; j++ {
			a, b := max(lo, j*p), min(hi, (j+1)*p)
			if b > a {
				shares[r] += row[j] / sum * float64(b-a) / float64(p)
			}
		}
	}
	return shares, k, true
}

// unevenSpread is rankSpread where the ranks' shares differ from the
// mean by more than 5 %: within that the ranks take the mean.
func (n *nodeContention) unevenSpread(id string, p int) (shares []float64, k int, ok bool) {
	sh, k, ok := n.rankSpread(id, p)
	if !ok || slices.Max(sh)*float64(p) <= 1.05 && slices.Min(sh)*float64(p) >= 0.95 {
		return nil, 0, false
	}
	return sh, k, true
}

// tripsNote says that loop id's iterations per entry follow the
// contention runs' trips, and what they were.
func (n *nodeContention) tripsNote(id string) string {
	var at []string
	for i, k := range n.runPPN {
		if v := n.trips[id][i]; v > 0 {
			at = append(at, fmt.Sprintf("%.4g at %d", v, k))
		}
	}
	if len(at) == 1 {
		// One run had it (code that runs only with more ranks): 1/P
		// past it is one entry per rank over its share; a loop entered
		// more often with more ranks (a pairwise merge of P runs, P-1
		// entries of n/P log2 P elements in all) is shorter per entry,
		// so that a merge of samplesort's at P = 8 took 2.3 times its
		// real count (docs/validation/outside-2026-11-28m, fault 6).
		return fmt.Sprintf("loop %s exits on data the interpreter does not know: its iterations per entry follow the profile's --ppn runs, of which only one entered it (%s ranks), in proportion to 1/P past it, as for one entry per rank over its share; where more ranks enter it more often (a pairwise merge of what P ranks sent) that is too long: profile with another rank count (--profile-ppn 1,2,4) to measure how it shrinks", id, at[0])
	}
	return fmt.Sprintf("loop %s exits on data the interpreter does not know: its iterations per entry at each rank count follow the profile's --ppn runs (%s ranks; a power of the rank count between and past them)", id, strings.Join(at, ", "))
}

// perRank is a count per call or per entry at p ranks from the contention
// runs' row of means at their rank counts ppn (the runs ran the program
// at each; 0 where a run had none): the run's at p itself, else
// interpolated between the two nearest runs that had one as a power of
// the rank count, or extrapolated past the largest by the power of the
// last two (between 1/p and p: a rank's share of the data shrinks at most
// in proportion), or, where only one run had one (code that runs only
// with more ranks, seen at two), in proportion to 1/p, as a rank's share
// of the data does. from says which; not ok below the smallest run that
// had one.
func perRank(vals []float64, ppn []int, p int) (v float64, from string, ok bool) {
	if len(vals) != len(ppn) || p < 1 {
		return 0, "", false
	}
	var ks []int
	var vs []float64
	for i, x := range vals {
		if x > 0 {
			ks, vs = append(ks, ppn[i]), append(vs, x)
		}
	}
	i, found := slices.BinarySearch(ks, p)
	switch {
	case found:
		at := fmt.Sprintf("%d ranks", p)
		if p == 1 {
			at = "1 rank"
		}
		return vs[i], "its mean in the profile's run at " + at, true
	case i == 0:
		return 0, "", false
	case len(ks) == 1:
		return vs[0] * float64(ks[0]) / float64(p), fmt.Sprintf("from its mean in the profile's run at %d ranks (%.0f), the only run that had one, in proportion to 1/P", ks[0], vs[0]), true
	}
	i = min(i, len(ks)-1)
	a, b := vs[i-1], vs[i]
	ka, kb := float64(ks[i-1]), float64(ks[i])
	e := max(-1, min(1, math.Log(b/a)/math.Log(kb/ka)))
	v, how := a*math.Pow(float64(p)/ka, e), "interpolated between"
	if p > ks[i] {
		v, how = b*math.Pow(float64(p)/kb, e), "extrapolated from"
	}
	return v, fmt.Sprintf("%s its means in the profile's runs at %d and %d ranks (%.0f, %.0f)", how, ks[i-1], ks[i], a, b), true
}

// onNode returns a view of o whose compute times are those of a rank on
// a node where k ranks compute at once (each region slowed down by its
// contention), stretched by share >= 1 where they take turns on fewer
// cores than they are, and scaled to the binary without probes (calib),
// in a run of p ranks in all (the lengths of library calls' data it
// cannot know).
func (o *Oracle) onNode(n *nodeContention, k int, share float64, p int) interpreter.Oracle {
	if n.c == nil && len(n.lengths)+len(n.trips) == 0 && n.m.ComputeFactor(k)*share*o.calib == 1 {
		return o
	}
	return &onNode{o: o, n: n, k: k, p: p, share: share, slow: map[string]float64{}, solo: map[string]float64{}, red: map[*interpreter.Reduction]*interpreter.Reduction{}}
}

type onNode struct {
	o     *Oracle
	n     *nodeContention
	k, p  int
	share float64
	slow  map[string]float64 // by region, computed once
	solo  map[string]float64 // SoloFactor by label, computed once
	red   map[*interpreter.Reduction]*interpreter.Reduction
}

// factor is the compute stretch of region id's own time, computed once.
func (s *onNode) factor(id string) float64 {
	f, ok := s.slow[id]
	if !ok {
		f = s.share * s.o.calib * s.n.regions([]string{id}, s.k)
		s.slow[id] = f
	}
	return f
}

// costRegions are the regions whose own time a charge labelled id is: a
// kernel nest's call sites (sources), else the region id itself.
func (o *Oracle) costRegions(id string) []string {
	if ids := o.sources[id]; ids != nil {
		return ids
	}
	return []string{id}
}

// SoloFactor implements interpreter.SoloCoster: a region's time for a
// rank alone on its node (a core of its own, nothing else computing) over
// its time with the k ranks of the node computing at once. The page
// faults of received memory keep their price: the machine's, not a
// region's.
func (s *onNode) SoloFactor(label string) float64 {
	if s.k < 2 || label == interpreter.PageFaultsLabel {
		return 1
	}
	f, ok := s.solo[label]
	if !ok {
		ids := s.o.costRegions(label)
		// Also above 1: a region the contention runs measured faster
		// with k ranks than with one costs its one-rank time alone. Code
		// only rank 0 runs (a setup) reads as noise there (0.77-0.89 at
		// 2-8 ranks for outside-2026-11-29's jacobi), and its one-rank
		// time is the measurement that fits a rank alone.
		f = 1
		if shared := s.share * s.n.regions(ids, s.k); shared > 0 {
			f = s.n.regions(ids, 1) / shared
		}
		s.solo[label] = f
	}
	return f
}

func (s *onNode) IsUser(fn *ssa.Function) bool { return s.o.IsUser(fn) }
func (s *onNode) BlockCost(b *ssa.BasicBlock) float64 {
	c := s.o.BlockCost(b)
	if c == 0 {
		return 0
	}
	return s.factor(s.o.BlockRegion(b)) * c
}

// BranchTaken is the oracle's, except for the exit test of a loop that
// exits on data: its exit rate is scaled so that the loop runs the
// iterations per entry the contention runs saw at this rank count (a
// merge of what a partner sent shortens as the ranks' shares do), where
// the profile's rate gives those of the profiled rank count.
func (s *onNode) BranchTaken(b *ssa.BasicBlock) (float64, bool) {
	p, ok := s.o.BranchTaken(b)
	e, exit := s.o.loopExit[b]
	if !ok || !exit || e.iters <= 0 {
		return p, ok
	}
	t, _, found := s.n.tripMeans(e.id, s.p)
	if !found || math.Abs(t-e.iters) <= 1e-9*e.iters {
		return p, ok
	}
	s.o.addNote(s.n.tripsNote(e.id))
	leave := p
	if e.stay0 {
		leave = 1 - p
	}
	leave = min(1, leave*e.iters/t)
	if e.stay0 {
		return 1 - leave, true
	}
	return leave, true
}
func (s *onNode) LoopExit(b *ssa.BasicBlock) (string, bool, bool) { return s.o.LoopExit(b) }

func (s *onNode) CallCost(c ssa.CallInstruction) float64 {
	t := s.o.CallCost(c)
	if t == 0 {
		return 0
	}
	return s.factor(s.o.CallRegion(c)) * t
}
func (s *onNode) CopyCost(c ssa.CallInstruction) (perElem, meanElems float64, label string, ok bool) {
	perElem, meanElems, label, ok = s.o.CopyCost(c)
	if ok {
		perElem *= s.factor(label)
	}
	return perElem, meanElems, label, ok
}
func (s *onNode) LibraryCost(c ssa.CallInstruction) (interpreter.LibraryCost, bool) {
	lc, ok := s.o.LibraryCost(c)
	if !ok {
		return lc, false
	}
	id := s.o.CallRegion(c)
	lc.PerUnit *= s.factor(id)
	if l, from, ok := s.n.length(id, s.p); ok {
		lc.Unknown, lc.Why = l, from
	}
	return lc, true
}
func (s *onNode) slowSimulation(p int, maxSteps int64) func(rank int, steps int64, in *ssa.Function) {
	return s.o.slowSimulation(p, maxSteps)
}
func (s *onNode) SiteBytes(site, op string) (float64, bool) { return s.o.SiteBytes(site, op) }
func (s *onNode) SiteData(site, op string) ([]byte, bool)   { return s.o.SiteData(site, op) }
func (s *onNode) BlockRegion(b *ssa.BasicBlock) string      { return s.o.BlockRegion(b) }
func (s *onNode) CallRegion(c ssa.CallInstruction) string   { return s.o.CallRegion(c) }
func (s *onNode) Reduction(from, to *ssa.BasicBlock) *interpreter.Reduction {
	r := s.o.Reduction(from, to)
	if r == nil {
		return nil
	}
	if v, ok := s.red[r]; ok {
		return v
	}
	// Once per nest (s.red): its sources are one region or a kernel's
	// call sites.
	f := s.share * s.o.calib * s.n.regions(s.o.costRegions(r.ID), s.k)
	v := *r
	v.MeanTime *= f
	v.IterTime *= f
	base := r.Time
	v.Time = func(bind interpreter.Binder) (float64, error) {
		t, err := base(bind)
		return f * t, err
	}
	if infer := r.Infer; infer != nil {
		v.Infer = func(bind interpreter.Binder) (float64, string, error) {
			t, what, err := infer(bind)
			return f * t, what, err
		}
	}
	s.red[r] = &v
	return &v
}
