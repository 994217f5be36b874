package prediction

import (
	"golang.org/x/tools/go/ssa"

	"github.com/parpredict/parpredict/interpreter"
)

var _ interpreter.RangeCoster = (*Oracle)(nil)

// RangeCost implements interpreter.RangeCoster: the profiler times the
// range statement of a range-over-func loop as a loop under its body's
// ID (the yield function's tree root), so that its time per iteration,
// what the body calls included, and per entry are known.
func (o *Oracle) RangeCost(yield *ssa.Function) (perIter, perEntry float64, label string, ok bool) {
	f := o.user[yield]
	if f == nil || f.Tree == nil {
		return 0, 0, "", false
	}
	id := f.Tree.ID()
	pr, found := o.region(id)
	if !found || !pr.Timed || pr.Iters <= 0 || pr.Execs <= 0 || pr.TotalNs <= 0 {
		return 0, 0, "", false
	}
	// Less the MPI calls in it: the interpreter charges a body only if it
	// makes none, and then this is the probes' sampling noise.
	t := max(pr.TotalNs-pr.MPINs, 0) * 1e-9
	return t / float64(pr.Iters), t / float64(pr.Execs), id, true
}

// RangeCost implements interpreter.RangeCoster with the loop's slowdown on
// the node and the calibration to the program without probes.
func (s *onNode) RangeCost(yield *ssa.Function) (perIter, perEntry float64, label string, ok bool) {
	perIter, perEntry, label, ok = s.o.RangeCost(yield)
	if ok {
		f := s.factor(label)
		perIter, perEntry = f*perIter, f*perEntry
	}
	return perIter, perEntry, label, ok
}
