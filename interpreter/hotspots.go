package interpreter

import (
	"sort"

	"golang.org/x/tools/go/ssa"
)

// hotSample is how many instructions apart a rank notes the function it
// is executing, at the first block it enters after that many.
const hotSample = 1 << 14

// HotSpot is a function in which the ranks spent a share of their
// interpreted instructions: where a prediction is slow because loops run
// instruction by instruction instead of as reduced nests.
type HotSpot struct {
	Fn    *ssa.Function
	Share float64 // of the sampled instructions
}

// Steps is how many SSA instructions the ranks executed so far.
func (sp *SSAPrograms) Steps() int64 {
	var n int64
	for _, r := range sp.ranks {
		n += r.steps
	}
	return n
}

// HotSpots lists the functions that took at least least of the sampled
// instructions, the largest share first (ties by name); none when too few
// instructions ran to sample.
func (sp *SSAPrograms) HotSpots(least float64) []HotSpot {
	var total int64
	for _, c := range sp.shared.codes {
		total += c.samples
	}
	var out []HotSpot
	if total == 0 {
		return nil
	}
	for fn, c := range sp.shared.codes {
		if share := float64(c.samples) / float64(total); share >= least && c.samples > 0 {
			out = append(out, HotSpot{Fn: fn, Share: share})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Share != out[j].Share {
			return out[i].Share > out[j].Share
		}
		return out[i].Fn.String() < out[j].Fn.String()
	})
	return out
}
