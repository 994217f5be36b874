package prediction

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/parpredict/parpredict/loopnest"
)

// A loop that appends to a slice kept from one iteration to the next
// reallocates it whenever it is full: the copy of the whole slice so far
// falls in one iteration of the profiled run, at a place its growth sets
// (the slice of one rank holding every row), and takes thousands of
// times an ordinary iteration once the slice is large. A rank that runs
// part of the iterations appends to its own, smaller slice and pays its
// copies at other places, about as much per element appended. So the
// per-iteration vector of such a loop must not charge the profiled run's
// copies to the ranks whose iterations they fell in: each iteration that
// stands out from its neighbours by more than growthSpike times is taken
// at its neighbours' median, and the nest's time, which still holds the
// copies, is shared over the iterations by the vector that remains,
// about in proportion to what each appends.

// growthSpike is how many times its neighbours' median an iteration of a
// loop that grows a slice must take to count as one that reallocated it.
// A copy of a slice of a few thousand elements is already tens of times
// an iteration that appends a few; the shape of real work (rows of a
// sparse matrix denser in its middle) changes far less from one row to
// the next.
const growthSpike = 8

// growthWindow is how many iterations on each side an iteration is
// compared with.
const growthWindow = 8

// growsSlice returns the position of an append in root's nest (its
// inner loops included) to a slice that outlives an iteration: one
// carried by a phi of the nest, or one loaded from memory (a field or a
// variable the loop appends to), else token.NoPos.
func growsSlice(root *loopnest.Loop) token.Pos {
	in := map[*ssa.BasicBlock]bool{}
	for _, b := range root.Blocks {
		in[b] = true
	}
	for _, b := range root.Blocks {
		for _, instr := range b.Instrs {
			v, ok := instr.(ssa.Value)
			if !ok {
				continue
			}
			call, ok := appendCall(v)
			if !ok {
				continue
			}
			switch base := call.Call.Args[0].(type) {
			case *ssa.Phi:
				if in[base.Block()] {
					return call.Pos()
				}
			case *ssa.UnOp:
				if base.Op == token.MUL {
					return call.Pos()
				}
			}
		}
	}
	return token.NoPos
}

// withoutGrowthSpikes returns times with every iteration that takes more
// than growthSpike times the median of its growthWindow neighbours on
// each side taken at that median, and how many it changed; times itself
// when none stands out.
func withoutGrowthSpikes(times []float64) ([]float64, int) {
	var out []float64
	changed := 0
	window := make([]float64, 0, 2*growthWindow)
	for i, t := range times {
		// Cheap test first: a spike is above a neighbour by the factor.
		lo, hi := max(i-1, 0), min(i+1, len(times)-1)
		if t <= growthSpike*min(times[lo], times[hi]) && (lo != i && hi != i) {
			continue
		}
		window = window[:0]
		for j := max(i-growthWindow, 0); j <= min(i+growthWindow, len(times)-1); j++ {
			if j != i {
				window = append(window, times[j])
			}
		}
		if len(window) == 0 {
			continue
		}
		slices.Sort(window)
		med := window[len(window)/2]
		if len(window)%2 == 0 {
			med = (window[len(window)/2-1] + med) / 2
		}
		if t <= growthSpike*med {
			continue
		}
		if out == nil {
			out = slices.Clone(times)
		}
		out[i] = med
		changed++
	}
	if out == nil {
		return times, 0
	}
	return out, changed
}
