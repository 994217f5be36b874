package interpreter

import (
	"fmt"
	"math"
)

// A node's ranks slow each other down while they compute at once (its
// caches and memory bus: the oracle's costs are those of a rank among as
// many as the node has computing). A rank that computes on after every
// other rank of its node has finished (rank 0 checking the result
// serially after the final gather) has the node to itself: its compute
// from then on is priced as the oracle says a rank alone would take.

// SoloCoster is implemented by oracles whose costs are those of a rank
// sharing its node with others that compute at the same time. SoloFactor
// is what a charge labelled label (a region, as RegionNamer names it)
// becomes, as a fraction, when the rank computes alone on its node.
type SoloCoster interface {
	SoloFactor(label string) float64
}

// PageFaultsLabel labels the compute charged for first touches of
// received memory: the machine's price per page, not a region's.
const PageFaultsLabel = "page faults"

// Soloist is implemented by programs that can price their compute for a
// rank alone on its node. After Solo, every Step also sums its compute at
// the alone rank's prices, which SoloCompute returns.
type Soloist interface {
	Solo()
	SoloCompute() float64
}

// soloTail is what the simulator keeps of a rank's compute since its
// last MPI operation (Options.Node): where it began, and what the rank
// computed since, as priced and as priced for a rank alone on its node.
type soloTail struct {
	start         float64
	priced, alone float64
}

// startSolo tells the programs of the ranks that share a node with
// others to price their compute alone too.
func (s *sim) startSolo() error {
	node := s.opts.Node
	if len(node) != len(s.ranks) {
		return fmt.Errorf("interpreter: %d node numbers for %d ranks", len(node), len(s.ranks))
	}
	count := map[int]int{}
	for r, n := range node {
		if n < 0 {
			return fmt.Errorf("interpreter: rank %d on node %d", r, n)
		}
		count[n]++
	}
	for _, r := range s.ranks {
		if r.soloist != nil && count[node[r.id]] > 1 {
			r.solo = true
			r.soloist.Solo()
		}
	}
	return nil
}

// stepped adds a Step's compute to r's tail, and before its first MPI
// operation to its head; after an MPI operation (a mark is none) the tail
// starts again.
func (r *rank) stepped(compute float64) {
	if !r.solo {
		return
	}
	if r.cur.Kind != OpMark {
		r.tail = soloTail{start: r.clock}
	}
	alone := r.soloist.SoloCompute()
	r.tail.priced += compute
	r.tail.alone += alone
	switch {
	case r.stats.Ops == 0:
		r.head.priced += compute
		r.head.alone += alone
	case r.firstDone == 0:
		r.firstDone = r.clock
	}
}

// aloneHeads is Run.AloneHeads: for each rank, the stretch of its head
// (from 0 to its first operation) after every other rank of its node had
// started its first operation and before the first of them completed it
// is priced alone.
func (s *sim) aloneHeads() []float64 {
	scale := make([]float64, len(s.ranks))
	for i, r := range s.ranks {
		scale[i] = 1
		if !r.solo || r.head.priced <= 0 || r.firstOp <= 0 {
			continue
		}
		n := s.opts.Node[r.id]
		from, until := 0.0, math.Inf(1)
		for _, o := range s.ranks {
			if o == r || s.opts.Node[o.id] != n {
				continue
			}
			if o.stats.Ops == 0 {
				from = math.Inf(1) // it never waited in an operation
				break
			}
			from = max(from, o.firstOp)
			if o.firstDone > 0 {
				until = min(until, o.firstDone)
			}
		}
		end := min(until, r.firstOp)
		if end <= from {
			continue
		}
		ratio := r.head.alone / r.head.priced
		scale[i] = (r.firstOp - (end-from)*(1-ratio)) / r.firstOp
	}
	return scale
}

// endSolo reprices, on each node, the tail of the rank that finished last:
// once the node's other ranks had finished, it computed alone. The part
// of its tail before the last of them finished keeps its price. Nothing
// waits for a rank after its last MPI operation, so the other ranks'
// times stand.
func (s *sim) endSolo() {
	last := map[int]*rank{}    // by node, the rank that finished last
	other := map[int]float64{} // by node, the latest finish of the others
	for _, r := range s.ranks {
		n := s.opts.Node[r.id]
		l, ok := last[n]
		switch {
		case !ok:
			last[n] = r
			other[n] = math.Inf(-1)
		case r.clock > l.clock:
			other[n] = max(other[n], l.clock)
			last[n] = r
		default:
			other[n] = max(other[n], r.clock)
		}
	}
	for n, r := range last {
		from := max(other[n], r.tail.start)
		if !r.solo || r.tail.priced <= 0 || from >= r.clock || math.IsInf(other[n], -1) {
			continue
		}
		ratio := r.tail.alone / r.tail.priced
		at := func(t float64) float64 {
			if t <= from {
				return t
			}
			return from + (t-from)*ratio
		}
		for i := range r.segs {
			sg := &r.segs[i]
			sg.Start, sg.End = at(sg.Start), at(sg.End)
		}
		for i := range r.marks {
			r.marks[i].T = at(r.marks[i].T)
		}
		end := at(r.clock)
		r.stats.Compute -= r.clock - end
		r.clock = end
	}
}

// Solo implements Soloist: from now on charges are also summed at the
// prices of the oracle's SoloFactor.
func (r *ssaRank) Solo() {
	r.soloer, _ = r.shared.oracle.(SoloCoster)
}

// SoloCompute implements Soloist: the last Step's compute at the alone
// rank's prices (its compute where the oracle has none).
func (r *ssaRank) SoloCompute() float64 {
	if r.soloer == nil {
		return r.compute
	}
	return r.soloCompute
}
