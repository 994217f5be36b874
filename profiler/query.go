package profiler

// Lookups for the interpreter's oracle, by model ID.

// BranchTaken returns the share of executions of the if region ifID that
// took the then arm; ok is false if the profile has no counts for it.
func (p *Profile) BranchTaken(ifID string) (prob float64, ok bool) {
	r, found := p.Region(ifID + "/then")
	if !found || r.Prob == nil {
		return 0, false
	}
	return *r.Prob, true
}

// LoopPerIter returns the own time of one iteration of loop id, and
// whether the loop was timed. An untimed loop's time is part of its
// FoldedInto region.
func (p *Profile) LoopPerIter(id string) (ns float64, ok bool) {
	r, found := p.Region(id)
	if !found || r.Kind != Loop || !r.Timed || r.Iters == 0 {
		return 0, false
	}
	return r.OwnPerIterNs, true
}

// CallCost returns the time of one call at the call leaf id: for a timed
// library call site its own time per call, for a timed user call site its
// whole time per call (callee included); ok is false when the site had
// no timer.
func (p *Profile) CallCost(id string) (ns float64, ok bool) {
	r, found := p.Region(id)
	if !found || r.Kind != Call || !r.Timed || r.Execs == 0 {
		return 0, false
	}
	if r.Library {
		return r.OwnNs / float64(r.Execs), true
	}
	return r.TotalNs / float64(r.Execs), true
}
