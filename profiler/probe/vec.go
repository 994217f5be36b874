package probe

import (
	"sync"
	"sync/atomic"
)

// maxVec bounds the per-iteration vector of one loop; iterations past it
// are still counted and timed, only not kept one by one.
const maxVec = 1 << 20

// vecAcc accumulates, per iteration ordinal, the time of that iteration
// summed over all entries of the loop (and all ranks).
type vecAcc struct {
	mu    sync.Mutex
	ns    []int64
	cnt   []int64
	spare atomic.Pointer[Vec] // an entry's recorder, kept for the next entry
}

var vecs []vecAcc

// prepare allocates the accumulators and one entry's recorder for n
// iterations before the program runs, and touches their pages: growing
// them inside the loop took page faults that the loop's time then held
// (on the 2-core VM, 20 to 30 us each).
func (a *vecAcc) prepare(k, n int) {
	a.ns, a.cnt = make([]int64, n), make([]int64, n)
	v := &Vec{k: k, last: -1, ns: make([]int64, n)[:0]}
	a.spare.Store(v)
	touch(a.ns)
	touch(a.cnt)
	touch(v.ns[:n])
}

// touch writes one element per page of xs, so that the pages are mapped.
func touch(xs []int64) {
	for i := 0; i < len(xs); i += 512 {
		xs[i] = 0
	}
}

// Vec records the iteration times of one entry of a loop. A nil *Vec is
// valid and records nothing, so loops without vectors pay one nil check.
type Vec struct {
	k    int
	last int64
	ns   []int64
}

// NewVec starts recording one entry of loop k, or returns nil when k has
// no vector. The recorder is the prepared one or the one the previous
// entry handed back (an atomic swap), so an entry allocates nothing once
// the loop has run.
func NewVec(k int) *Vec {
	if k >= len(slots) || !slots[k].vec {
		return nil
	}
	if v := vecs[k].spare.Swap(nil); v != nil {
		return v
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

// Done ends the entry: the last iteration ends now. It runs after the
// loop's timer stopped; its cost is calibrated (Costs.VecEntry and
// VecElem) and taken out of the enclosing region's time.
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
	}
	for i, d := range v.ns {
		a.ns[i] += d
		a.cnt[i]++
	}
	v.ns, v.last = v.ns[:0], -1
	a.spare.CompareAndSwap(nil, v)
}
