package prediction

import (
	"slices"

	"github.com/parpredict/parpredict/model"
	"github.com/parpredict/parpredict/profiler"
)

// zones attributes the profile's own times to the loops of reduced nests.
//
// A timed loop's time less that of the timed loops nested in it holds the
// probes of everything timed in between: the loop's own per-iteration
// tick, the timers of the call sites in its body and of the functions
// they call. With a call per iteration those are a few hundred
// nanoseconds per iteration, which the loop's iterations then carried as
// if they were the program's work (a kernel of 600 iterations called per
// iteration looked 30 % dearer per call than it is). The own times have
// the probes taken out: what a loop's iterations cost is the own time of
// every timed region whose nearest enclosing loop of the nest is that
// loop.
type zones struct {
	// profID turns a model region ID into the profile's (Oracle.profID):
	// a generic instance's regions are profiled under the generic's.
	profID func(string) string
	prof   *profiler.Profile
	// sites are the IDs of the call regions by callee (its full name),
	// for walking from a function's body to the loops that call it.
	sites map[string][]string
	// full is the SSA full name of each program function, by its name in
	// region IDs ("main.step").
	full map[string]string
}

func newZones(prof *profiler.Profile, mp *model.Program) *zones {
	z := &zones{prof: prof, sites: map[string][]string{}, full: map[string]string{}}
	for i := range prof.Regions {
		r := &prof.Regions[i]
		if r.Kind == profiler.Call && r.Callee != "" {
			z.sites[r.Callee] = append(z.sites[r.Callee], r.ID)
		}
		if r.Kind == profiler.FuncBody && r.Parent == "" {
			if f := mp.Func(r.Func); f != nil && f.SSA != nil {
				z.full[r.Func] = f.SSA.String()
			}
		}
	}
	return z
}

// exclusiveOwn is the own time (ns) of the timed regions inside loop l
// and outside the loops in inner (the timed loops nested in l that the
// nest costs on their own). It reports false when the profile has no
// own time for l.
func (z *zones) exclusiveOwn(l string, inner []string) (float64, bool) {
	parts, ok := z.exclusiveParts(l, inner)
	own := 0.0
	for _, p := range parts {
		own += p.weight
	}
	return max(own, 0), ok
}

// exclusiveParts are the timed regions whose own time exclusiveOwn sums,
// in profile order, each with the own time (ns) it adds: the regions
// whose slowdown on a shared node is the loop's.
func (z *zones) exclusiveParts(l string, inner []string) ([]weighted, bool) {
	if z.profID != nil {
		l = z.profID(l)
		inner = slices.Clone(inner)
		for i, id := range inner {
			inner[i] = z.profID(id)
		}
	}
	lr, ok := z.prof.Region(l)
	if !ok || !lr.Timed {
		return nil, false
	}
	stop := map[string]float64{l: 1}
	for _, id := range inner {
		stop[id] = 0
	}
	share := map[string]float64{}
	busy := map[string]bool{}
	var in func(r *profiler.Region, depth int) float64
	in = func(r *profiler.Region, depth int) float64 {
		if s, ok := stop[r.ID]; ok {
			return s
		}
		if s, ok := share[r.ID]; ok {
			return s
		}
		if busy[r.ID] || depth > 256 {
			return 0 // recursion: the time is attributed through the first call
		}
		busy[r.ID] = true
		s := 0.0
		for _, p := range z.parents(r, lr.Ranks) {
			if pr, ok := z.prof.Region(p.id); ok {
				s += p.weight * in(pr, depth+1)
			}
		}
		busy[r.ID] = false
		share[r.ID] = s
		return s
	}
	var parts []weighted
	for i := range z.prof.Regions {
		r := &z.prof.Regions[i]
		if !r.Timed || r.OwnNs <= 0 {
			continue // below zero: the probes' calibrated cost over-subtracted, not time
		}
		if r.Ranks != 0 && r.Ranks != lr.Ranks {
			continue // another run's numbers (code the profiled run never reached)
		}
		if s := in(r, 0); s > 0 {
			parts = append(parts, weighted{r.ID, s * r.OwnNs})
		}
	}
	return parts, true
}

type weighted struct {
	id     string
	weight float64
}

// parents are the regions that enclose r: its parent in its function, or
// for a function's body the sites that call it, each for the share of
// the calls' time it holds. The sites share the body's time with the
// sites of the same run (Region.Ranks); where the regions are summed for
// a root of another run (code the profiled run never reached, calling a
// function it did), that run's sites take the body's time per call, each
// for its own calls.
func (z *zones) parents(r *profiler.Region, rootRanks int) []weighted {
	if r.Parent != "" {
		return []weighted{{r.Parent, 1}}
	}
	if r.Kind != profiler.FuncBody || r.Rank {
		return nil
	}
	var sites, others []*profiler.Region
	for _, id := range z.sites[z.full[r.Func]] {
		s, ok := z.prof.Region(id)
		switch {
		case !ok:
		case s.Ranks == r.Ranks:
			sites = append(sites, s)
		case s.Ranks == rootRanks:
			others = append(others, s)
		}
	}
	total, execs := 0.0, int64(0)
	for _, s := range sites {
		total += s.TotalNs
		execs += s.Execs
	}
	out := make([]weighted, 0, len(sites)+len(others))
	for _, s := range sites {
		w := 0.0
		switch {
		case total > 0:
			w = s.TotalNs / total
		case execs > 0:
			w = float64(s.Execs) / float64(execs)
		}
		out = append(out, weighted{s.ID, w})
	}
	for _, s := range others {
		if execs > 0 {
			out = append(out, weighted{s.ID, float64(s.Execs) / float64(execs)})
		}
	}
	return out
}

// rankBodiesOwn is the own time of the ranks' bodies (the functions given
// to mpi.Main or Run) and of everything timed inside them and in what they
// call. It reports false when the profile names no rank body.
func (z *zones) rankBodiesOwn() (float64, bool) {
	total, found := 0.0, false
	for i := range z.prof.Regions {
		if r := &z.prof.Regions[i]; r.Rank && r.Kind == profiler.FuncBody && r.Timed {
			own, _ := z.exclusiveOwn(r.ID, nil)
			total += own
			found = true
		}
	}
	return total, found
}
