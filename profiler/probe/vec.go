package probe

import "sync"

// maxVec bounds the per-iteration vector of one loop; iterations past it
// are still counted and timed, only not kept one by one.
const maxVec = 1 << 20

// vecAcc accumulates, per iteration ordinal, the time of that iteration
// summed over all entries of the loop (and all ranks).
type vecAcc struct {
	mu  sync.Mutex
	ns  []int64
	cnt []int64
	min []int64 // smallest time of that iteration over entries
}

var vecs []vecAcc

// Vec records the iteration times of one entry of a loop. A nil *Vec is
// valid and records nothing, so loops without vectors pay one nil check.
type Vec struct {
	k    int
	last int64
	ns   []int64
}

// NewVec starts recording one entry of loop k, or returns nil when k has
// no vector.
func NewVec(k int) *Vec {
	if k >= len(slots) || !slots[k].vec {
		return nil
	}
	return &Vec{k: k, last: -1}
}

// Tick marks the start of an iteration, which ends the previous one. It
// is called in every iteration of an outermost loop, so the nil case must
// inline to a single check.
func (v *Vec) Tick() {
	if v != nil {
		v.tick()
	}
}

func (v *Vec) tick() {
	t := Now()
	if v.last >= 0 && len(v.ns) < maxVec {
		v.ns = append(v.ns, t-v.last)
	}
	v.last = t
}

// Done ends the entry: the last iteration ends now.
func (v *Vec) Done() {
	if v == nil {
		return
	}
	v.tick()
	a := &vecs[v.k]
	a.mu.Lock()
	defer a.mu.Unlock()
	for len(a.ns) < len(v.ns) {
		a.ns = append(a.ns, 0)
		a.cnt = append(a.cnt, 0)
		a.min = append(a.min, 1<<62)
	}
	for i, d := range v.ns {
		a.ns[i] += d
		a.cnt[i]++
		a.min[i] = min(a.min[i], d)
	}
}
