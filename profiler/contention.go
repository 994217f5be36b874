package profiler

// Contention records how the compute of the program slows down when k
// ranks run at once on this node: for each k in PPN, the rank count of the
// rerun, Regions holds each timed region's own time per iteration (loops)
// or per execution divided by the same in the first rerun, and Total the
// mean of the loops' ratios weighted by their own times in the first rerun
// (0: no timed loop). Not the ratio of the total own times, nor of times
// per execution: work replicated on every rank, a ping-pong that does
// nothing alone, or a kernel called on 1/k of the data would show a
// slowdown (or speedup) that is none; a loop's iteration is the same work
// at every k.
//
// The k ranks are goroutines of one process (the default mpi backend), so
// they share the node's caches and memory bus as k MPI processes would;
// they do not pay separate address spaces. See docs/profiler.md.
type Contention struct {
	PPN     []int                `json:"ppn"`
	Total   []float64            `json:"total"`
	Regions map[string][]float64 `json:"regions"`
}

// add appends the slowdowns of run a against base.
func (c *Contention) add(in *Instrumented, plan timerPlan, base, a *aggregator) {
	var sumA, sumB float64
	for _, r := range in.Regions {
		k := r.Index
		if !plan.timed[k] {
			continue
		}
		per := func(g *aggregator) float64 {
			rc := g.rc(k)
			if r.Kind == Loop && rc.Iters > 0 {
				return g.own[k] / float64(rc.Iters)
			}
			if g.execs[k] > 0 {
				return g.own[k] / float64(g.execs[k])
			}
			return 0
		}
		s := 0.0
		if b := per(base); b > 0 {
			s = per(a) / b
		}
		c.Regions[r.ID] = append(c.Regions[r.ID], s)
		// Only a loop's time per iteration is the same work at every k: a
		// call or a function body may do 1/k of the data per execution.
		if r.Kind == Loop && s > 0 && base.own[k] > 0 {
			sumA += s * base.own[k]
			sumB += base.own[k]
		}
	}
	s := 0.0
	if sumB > 0 {
		s = sumA / sumB
	}
	c.Total = append(c.Total, s)
}
