package loopnest

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Rotation is a set of a loop's header phis that only trade values among
// themselves: on every back edge each takes another's (or its own) value,
// as double buffers do (prev, cur = cur, prev). After T iterations each
// holds the value one of them had at entry, which the trip count alone
// decides; so such a loop's results are known when the loop is reduced,
// and using them after it steers nothing the interpreter cannot follow.
type Rotation struct {
	// Phis are the header's phis in the rotation.
	Phis []*ssa.Phi
	// Next[i] is the index in Phis of the phi whose value Phis[i] takes on
	// a back edge.
	Next []int
}

// At is the index in Phis of the phi whose value at entry Phis[i] holds
// after trips iterations.
func (r *Rotation) At(i int, trips int64) int {
	// Within len(Phis) steps the walk is on the cycle it ends in; then
	// only the steps left modulo the cycle's length matter.
	n := int64(len(r.Phis))
	for range min(trips, n) {
		i = r.Next[i]
	}
	if trips <= n {
		return i
	}
	period := int64(1)
	for j := r.Next[i]; j != i; j = r.Next[j] {
		period++
	}
	for range (trips - n) % period {
		i = r.Next[i]
	}
	return i
}

// rotation finds the header phis of l that only trade values among
// themselves on its back edges (the same phi by every back edge), nil if
// there are none. A loop that leaves from elsewhere than its header (a
// test after the body, a break) is not considered: its results are then
// the body's values, not the header's, or its trip count only a bound.
func rotation(l *Loop) *Rotation {
	h := l.Header
	if l.BottomTest || l.UpperBound {
		return nil
	}
	for _, b := range l.Blocks {
		for _, s := range b.Succs {
			if b != h && !l.Contains(s) {
				return nil
			}
		}
	}
	var back []int
	for e, p := range h.Preds {
		if l.Contains(p) {
			back = append(back, e)
		}
	}
	if len(back) == 0 {
		return nil
	}
	var phis []*ssa.Phi
	for _, in := range h.Instrs {
		if p, ok := in.(*ssa.Phi); ok {
			phis = append(phis, p)
		}
	}
	// Keep the phis whose back-edge values are all one phi still kept,
	// until nothing changes.
	in := map[*ssa.Phi]bool{}
	for _, p := range phis {
		in[p] = true
	}
	for changed := true; changed; {
		changed = false
		for _, p := range phis {
			if !in[p] {
				continue
			}
			q, ok := p.Edges[back[0]].(*ssa.Phi)
			keep := ok && in[q]
			for _, e := range back[1:] {
				keep = keep && p.Edges[e] == q
			}
			if !keep {
				delete(in, p)
				changed = true
			}
		}
	}
	// Phis whose back-edge value is themselves never change: they stay
	// what they were at entry, which At gives too.
	r := &Rotation{}
	index := map[*ssa.Phi]int{}
	for _, p := range phis {
		if in[p] {
			index[p] = len(r.Phis)
			r.Phis = append(r.Phis, p)
		}
	}
	for _, p := range r.Phis {
		r.Next = append(r.Next, index[p.Edges[back[0]].(*ssa.Phi)])
	}
	if len(r.Phis) == 0 {
		return nil
	}
	return r
}

// rotating reports whether phi is in the Rotation of the loop whose
// header holds it.
func (fa *funcAnalysis) rotating(phi *ssa.Phi) bool {
	for _, l := range fa.loops {
		if l.Header == phi.Block() {
			return l.rotates(phi)
		}
	}
	return false
}

// rotates reports whether v is one of l's rotating header phis.
func (l *Loop) rotates(v ssa.Value) bool {
	phi, ok := v.(*ssa.Phi)
	return ok && l.Rotation != nil && slices.Contains(l.Rotation.Phis, phi)
}
