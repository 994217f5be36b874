package prediction

import (
	"sort"

	"github.com/parpredict/parpredict/commmodel"
)

// computeFactor is how much slower the program computes with per ranks
// computing on one node than with one. The program's own slowdown, which
// the profiler measures with its --ppn reruns on the node the profile is
// made on (the target machine's, by the method's premise), is used where
// the profile has it; beyond its largest rank count the machine's table
// carries it on; without it, the machine's compute_slowdown table is all
// there is (a kernel that stands for every program).
func (o *Oracle) computeFactor(m *commmodel.Machine, per int) float64 {
	c := o.prof.Contention
	if c == nil || len(c.PPN) < 2 || len(c.Total) != len(c.PPN) || per < 1 {
		return m.ComputeFactor(per)
	}
	type point struct {
		k int
		f float64
	}
	pts := make([]point, 0, len(c.PPN))
	for i, k := range c.PPN {
		if k >= 1 && c.Total[i] > 0 {
			pts = append(pts, point{k, c.Total[i]})
		}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].k < pts[j].k })
	if len(pts) < 2 || pts[0].k != 1 {
		// Slowdowns are relative to the first rank count; without one
		// rank as the base they do not say how much slower than alone.
		return m.ComputeFactor(per)
	}
	// Relative to the run with one rank, which may itself differ a little
	// from 1 by noise.
	base := pts[0].f
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		if per <= b.k {
			f := a.f + (b.f-a.f)*float64(per-a.k)/float64(b.k-a.k)
			return f / base
		}
	}
	last := pts[len(pts)-1]
	return last.f / base * m.ComputeFactor(per) / m.ComputeFactor(last.k)
}
