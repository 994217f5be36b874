package interpreter

import (
	"math/bits"

	"golang.org/x/tools/go/ssa"
)

// maxSharedSlots bounds the values of a function whose slots are shared:
// the interference matrix takes n*n bits (8 MiB at this bound). Larger
// functions keep a slot per value.
const maxSharedSlots = 8192

// shareSlots is turned off by tests to check that sharing slots changes
// no result.
var shareSlots = true

// slotPlan assigns the values of a function their frame slots.
//
// Values that are never live at the same time share a slot, as registers
// are shared in a compiler. What a rank touches when it resumes is then a
// few cache lines of its frames instead of one slot per instruction ever
// executed: with a thousand ranks interleaved in virtual time, every
// resumed rank's frames are cold, and the evaluator's time went to those
// misses.
//
// The evaluator differs from straight-line execution in three ways, which
// the liveness below accounts for:
//   - a block's phis are assigned one after another on entry, so the
//     operands of a block's phis never share a slot with its phis;
//   - a reduced nest is skipped: the values its time depends on (Needs) and
//     the memory it writes are read on its entry edge, so they are live
//     there, and its definitions are made unknown on its exit edge;
//   - an instruction may write its result before it has read all its
//     operands (an MPI call completing later), so a result never shares a
//     slot with the instruction's operands.
type slotPlan struct {
	index  map[ssa.Value]int32
	nslots int
	num    map[ssa.Value]int // the value numbers of the liveness sets
	// liveOut is per block (by index) the values live at its end; nil when
	// every value has its own slot (then every value counts as live).
	liveOut []bitset
}

// live reports whether v, a value of the function, may be read after
// block b ends.
func (p *slotPlan) live(b *ssa.BasicBlock, v ssa.Value) bool {
	if p.liveOut == nil {
		return true
	}
	n, ok := p.num[v]
	return ok && p.liveOut[b.Index].has(n)
}

// planSlots plans fn's slots. reds are the reduced nests by block index
// and predecessor index (nil entries for edges that enter none).
func planSlots(fn *ssa.Function, reds [][]*Reduction) *slotPlan {
	p := &slotPlan{index: map[ssa.Value]int32{}, num: map[ssa.Value]int{}}
	var vals []ssa.Value
	add := func(v ssa.Value) {
		p.num[v] = len(vals)
		vals = append(vals, v)
	}
	for _, v := range fn.Params {
		add(v)
	}
	for _, v := range fn.FreeVars {
		add(v)
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if v, ok := in.(ssa.Value); ok {
				add(v)
			}
		}
	}
	n := len(vals)
	shared := shareSlots && n <= maxSharedSlots
	for _, rs := range reds {
		for _, red := range rs {
			if red != nil && red.Needs == nil {
				shared = false // the nest may ask for any value
			}
		}
	}
	if !shared {
		for i, v := range vals {
			p.index[v] = int32(i)
		}
		p.nslots = n
		return p
	}
	liveIn, liveOut := liveness(fn, p.num, reds)
	p.liveOut = liveOut
	rows := interference(fn, p.num, liveIn, liveOut)
	colour := make([]int32, n)
	var taken []bool
	for v := range n {
		clear(taken)
		rows[v].each(func(u int) {
			if u < v {
				taken[colour[u]] = true
			}
		})
		c := 0
		for c < len(taken) && taken[c] {
			c++
		}
		if c == len(taken) {
			taken = append(taken, false)
		}
		colour[v] = int32(c)
		p.index[vals[v]] = int32(c)
	}
	p.nslots = len(taken)
	return p
}

// operandNums calls f with the number of each operand of in that is a
// value of the function.
func operandNums(in ssa.Instruction, num map[ssa.Value]int, buf []*ssa.Value, f func(int)) []*ssa.Value {
	buf = in.Operands(buf[:0])
	for _, op := range buf {
		if op == nil || *op == nil {
			continue
		}
		if n, ok := num[*op]; ok {
			f(n)
		}
	}
	return buf
}

// liveness returns, per block, the values live at its start and at its
// end, by iterating the backward data-flow equations to their fixed point.
func liveness(fn *ssa.Function, num map[ssa.Value]int, reds [][]*Reduction) (liveIn, liveOut []bitset) {
	n := len(num)
	nb := len(fn.Blocks)
	uses := make([]bitset, nb)  // read in the block before any definition there
	defs := make([]bitset, nb)  // defined in the block, phis included
	extra := make([]bitset, nb) // read on the block's outgoing edges
	liveIn = make([]bitset, nb)
	liveOut = make([]bitset, nb)
	var buf []*ssa.Value
	for _, b := range fn.Blocks {
		i := b.Index
		uses[i], defs[i], extra[i] = newBitset(n), newBitset(n), newBitset(n)
		liveIn[i], liveOut[i] = newBitset(n), newBitset(n)
		for _, in := range b.Instrs {
			if _, ok := in.(*ssa.Phi); !ok {
				buf = operandNums(in, num, buf, func(u int) {
					if !defs[i].has(u) {
						uses[i].set(u)
					}
				})
			}
			if v, ok := in.(ssa.Value); ok {
				defs[i].set(num[v])
			}
		}
	}
	for _, b := range fn.Blocks {
		for e, pred := range b.Preds {
			for _, in := range b.Instrs {
				phi, ok := in.(*ssa.Phi)
				if !ok {
					break
				}
				if u, ok := num[phi.Edges[e]]; ok {
					extra[pred.Index].set(u)
				}
			}
			// A skipped nest reads what its time needs and the memory
			// it writes on its entry edge.
			if red := reds[b.Index][e]; red != nil {
				for _, vs := range [][]ssa.Value{red.Needs, red.Writes} {
					for _, v := range vs {
						if u, ok := num[v]; ok {
							extra[pred.Index].set(u)
						}
					}
				}
				for _, p := range red.WritesThrough {
					if u, ok := num[p.Base]; ok {
						extra[pred.Index].set(u)
					}
				}
				for _, g := range red.Grows {
					if u, ok := num[g.Base]; ok {
						extra[pred.Index].set(u)
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for i := nb - 1; i >= 0; i-- {
			b := fn.Blocks[i]
			out := liveOut[i]
			out.or(extra[i])
			for _, s := range b.Succs {
				out.or(liveIn[s.Index])
			}
			if liveIn[i].orDiff(out, defs[i]) {
				changed = true
			}
			if liveIn[i].or(uses[i]) {
				changed = true
			}
		}
	}
	return liveIn, liveOut
}

// interference returns the symmetric interference matrix: row v has u
// when v and u must not share a slot.
func interference(fn *ssa.Function, num map[ssa.Value]int, liveIn, liveOut []bitset) []bitset {
	n := len(num)
	rows := make([]bitset, n)
	for i := range rows {
		rows[i] = newBitset(n)
	}
	live := newBitset(n)
	var buf []*ssa.Value
	for _, b := range fn.Blocks {
		copy(live, liveOut[b.Index])
		first := 0
		for first < len(b.Instrs) {
			if _, ok := b.Instrs[first].(*ssa.Phi); !ok {
				break
			}
			first++
		}
		for k := len(b.Instrs) - 1; k >= first; k-- {
			in := b.Instrs[k]
			if v, ok := in.(ssa.Value); ok {
				// The result conflicts with what is live after the
				// instruction and with its own operands.
				d := num[v]
				rows[d].or(live)
				live.clear(d)
				buf = operandNums(in, num, buf, func(u int) { rows[d].set(u); live.set(u) })
			} else {
				buf = operandNums(in, num, buf, live.set)
			}
		}
		// The phis are written on entry, one after another, while their
		// operands on the edge are read.
		phiPoint := live
		for _, in := range b.Instrs[:first] {
			phiPoint.set(num[in.(ssa.Value)])
			buf = operandNums(in, num, buf, phiPoint.set)
		}
		for _, in := range b.Instrs[:first] {
			rows[num[in.(ssa.Value)]].or(phiPoint)
		}
	}
	// Parameters and free variables are written together on entry.
	entry := newBitset(n)
	for _, v := range fn.Params {
		entry.set(num[v])
	}
	for _, v := range fn.FreeVars {
		entry.set(num[v])
	}
	if len(fn.Blocks) > 0 {
		// Values read before they are written (a skipped nest's own
		// definitions among what its time needs) are live from the entry.
		entry.each(func(u int) { rows[u].or(liveIn[0]) })
	}
	entry.each(func(u int) { rows[u].or(entry) })
	for u := range n {
		rows[u].clear(u)
	}
	for u := range n {
		rows[u].each(func(v int) { rows[v].set(u) })
	}
	return rows
}

// bitset is a set of small non-negative integers.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (s bitset) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s bitset) set(i int)      { s[i/64] |= 1 << (i % 64) }
func (s bitset) clear(i int)    { s[i/64] &^= 1 << (i % 64) }

// or adds t to s and reports whether s changed.
func (s bitset) or(t bitset) bool {
	changed := false
	for i, w := range t {
		if s[i]|w != s[i] {
			s[i] |= w
			changed = true
		}
	}
	return changed
}

// orDiff adds t minus u to s and reports whether s changed.
func (s bitset) orDiff(t, u bitset) bool {
	changed := false
	for i, w := range t {
		w &^= u[i]
		if s[i]|w != s[i] {
			s[i] |= w
			changed = true
		}
	}
	return changed
}

// each calls f with the members of s in increasing order.
func (s bitset) each(f func(int)) {
	for i, w := range s {
		for w != 0 {
			f(i*64 + bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}
