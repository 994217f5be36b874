package interpreter

import "golang.org/x/tools/go/ssa"

// rotationCode is a Rotation compiled for one entry edge of its nest.
type rotationCode struct {
	rot   *Rotation
	entry []operand // each phi's value by the entry edge
	slots []int32   // each phi's slot, -1 where it is dead after the nest
	index map[ssa.Value]int
	// orbits[i] are the phis whose entry values Phis[i] takes over the
	// iterations (itself first).
	orbits [][]int
	vals   []value // rotate's scratch
}

func (s *programShared) rotation(fc *fnCode, red *Reduction, e int, plan *slotPlan) *rotationCode {
	rot := red.Rotation
	rc := &rotationCode{rot: rot, index: map[ssa.Value]int{}}
	for i, p := range rot.Phis {
		rc.index[p] = i
		rc.entry = append(rc.entry, s.operand(fc, p.Edges[e]))
		slot, ok := fc.index[p]
		if !ok || red.ExitFrom == nil || red.ExitFrom.Parent() != fc.fn || !plan.live(red.ExitFrom, p) {
			slot = -1
		}
		rc.slots = append(rc.slots, slot)
		// A function on n phis reaches all it ever will in n steps.
		var orbit []int
		seen := map[int]bool{}
		for t := range int64(len(rot.Phis)) {
			if j := rot.At(i, t); !seen[j] {
				seen[j] = true
				orbit = append(orbit, j)
			}
		}
		rc.orbits = append(rc.orbits, orbit)
	}
	return rc
}

// rotated reads, before a skipped nest's values are forgotten, what each
// rotating phi holds after the nest entered from f: false when the trip
// count is not known (they are then forgotten with the rest).
func (r *ssaRank) rotated(f *frame, rc *reduction) bool {
	rot := rc.rot
	r.bindTo(f, rc)
	trips, err := rot.rot.Trips(r.binder)
	r.unbind()
	if err != nil || trips < 0 {
		return false
	}
	rot.vals = rot.vals[:0]
	for i := range rot.entry {
		rot.vals = append(rot.vals, r.get(f, &rot.entry[rot.rot.At(i, trips)]))
	}
	return true
}

// setRotated gives the rotating phis the values rotated read.
func (r *ssaRank) setRotated(f *frame, rc *reduction) {
	rot := rc.rot
	for i, slot := range rot.slots {
		if slot >= 0 {
			f.env[slot] = rot.vals[i]
		}
	}
	clear(rot.vals)
	rot.vals = rot.vals[:0]
}

// orbitQuestion is the binder's question about v, a rotating phi of the
// nest being entered: its entry values over the iterations, which must
// all answer alike; nil if v is none.
func (r *ssaRank) orbitQuestion(v ssa.Value) *bindQuestion {
	rot := r.bindRot
	if rot == nil {
		return nil
	}
	i, ok := rot.index[v]
	if !ok {
		return nil
	}
	q := &bindQuestion{kind: askOrbit}
	for _, j := range rot.orbits[i] {
		q.orbit = append(q.orbit, rot.entry[j])
	}
	return q
}

// askOrbitIn answers an askOrbit question in frame f: the answer all the
// entry values give, if they agree.
func (r *ssaRank) askOrbitIn(f *frame, q *bindQuestion) (int64, bool) {
	var first int64
	for k := range q.orbit {
		n, ok := bindValue(*r.ref(f, &q.orbit[k]))
		if !ok || k > 0 && n != first {
			return 0, false
		}
		first = n
	}
	return first, true
}
