package interpreter

import (
	"fmt"
	"maps"
	"math"
	"slices"
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

// startSolo groups the ranks by node and tells the programs of the ranks
// that share a node with others to price their compute alone too.
func (s *sim) startSolo() error {
	node := s.opts.Node
	if len(node) != len(s.ranks) {
		return fmt.Errorf("interpreter: %d node numbers for %d ranks", len(node), len(s.ranks))
	}
	byNode := map[int][]*rank{}
	for _, r := range s.ranks {
		n := node[r.id]
		if n < 0 {
			return fmt.Errorf("interpreter: rank %d on node %d", r.id, n)
		}
		byNode[n] = append(byNode[n], r)
	}
	for _, n := range slices.Sorted(maps.Keys(byNode)) {
		if ranks := byNode[n]; len(ranks) > 1 {
			s.shared = append(s.shared, ranks)
		}
	}
	for _, ranks := range s.shared {
		for _, r := range ranks {
			if r.soloist != nil {
				r.solo = true
				r.soloist.Solo()
			}
		}
	}
	return nil
}

// stepped adds a Step's compute to r's tail; after an MPI operation (a
// mark is none) the tail starts again.
func (r *rank) stepped(compute float64) {
	if !r.solo {
		return
	}
	if r.cur.Kind != OpMark {
		r.tail = soloTail{start: r.clock}
	}
	r.tail.priced += compute
	r.tail.alone += r.soloist.SoloCompute()
}

// primedStep is a rank's first Step: its head (the compute before its
// first MPI operation) and that operation.
type primedStep struct {
	compute, alone float64
	op             Op
	err            error
}

// step is r's next Step: its primed first one, else its program's.
func (r *rank) step() (float64, Op, error) {
	if p := r.primed; p != nil {
		r.primed = nil
		return p.compute, p.op, p.err
	}
	return r.prog.Step(r.res)
}

// primeHeads steps every rank of a shared node to its first MPI
// operation before the simulation starts (they are all at clock 0, where
// the simulator would step them first anyway), and prices alone the part
// of a rank's head after the node's other ranks have reached operations
// that cannot complete without it (rank 0 filling the input while the
// others wait in a barrier, or for its scatter): that rank then has the
// node to itself. Other first operations (a receive from another node)
// may let a rank compute again before the head ends, and leave it priced
// as it was.
func (s *sim) primeHeads() {
	for _, ranks := range s.shared {
		for _, r := range ranks {
			if r.solo {
				c, op, err := r.prog.Step(r.res)
				r.primed = &primedStep{compute: c, alone: r.soloist.SoloCompute(), op: op, err: err}
			}
		}
	}
	alone := make(map[*rank]float64)
	for _, ranks := range s.shared {
		for _, r := range ranks {
			if c, ok := headAlone(r, ranks); ok {
				alone[r] = c
			}
		}
	}
	for r, c := range alone {
		r.primed.compute = c
	}
}

// headAlone is r's head priced alone from when the other ranks of its
// node (ranks) reach first operations that wait for it; not ok where one
// does not wait for it or the head does not outlast theirs.
func headAlone(r *rank, ranks []*rank) (float64, bool) {
	p := r.primed
	if p == nil || p.err != nil || p.compute <= 0 || p.op.Kind == OpFinish || p.op.Kind == OpMark {
		return 0, false
	}
	from := 0.0
	for _, o := range ranks {
		if o == r {
			continue
		}
		if o.primed == nil || o.primed.err != nil || !waitsFor(o.primed.op, o.id, r.id) {
			return 0, false
		}
		from = max(from, o.primed.compute)
	}
	if from >= p.compute {
		return 0, false
	}
	return from + (p.compute-from)*p.alone/p.compute, true
}

// waitsFor says whether rank self's operation op cannot complete before
// rank r has started its own part of it.
func waitsFor(op Op, self, r int) bool {
	if op.Group != nil {
		return false // a communicator r may not be in
	}
	switch op.Kind {
	case OpBarrier, OpAllreduce, OpAllgather, OpAlltoall, OpSplit:
		return true
	case OpBcast, OpScatter:
		return op.Root == r
	case OpGather, OpReduce:
		return op.Root == self
	case OpRecv:
		return op.Peer == r
	case OpSendrecv:
		return op.RecvPeer == r
	}
	return false
}

// endSolo reprices, on each node, the tail of the rank that finished last:
// once the node's other ranks had finished, it computed alone. The part
// of its tail before the last of them finished keeps its price. Nothing
// waits for a rank after its last MPI operation, so the other ranks'
// times stand.
func (s *sim) endSolo() {
	for _, ranks := range s.shared {
		// The rank that finished last, and the latest finish of the
		// others.
		last, other := ranks[0], math.Inf(-1)
		for _, r := range ranks[1:] {
			if r.clock > last.clock {
				last, r = r, last
			}
			other = max(other, r.clock)
		}
		s.repriceTail(last, other)
	}
}

// repriceTail prices r's tail alone from when the others of its node had
// finished (other) on.
func (s *sim) repriceTail(r *rank, other float64) {
	from := max(other, r.tail.start)
	if !r.solo || r.tail.priced <= 0 || from >= r.clock {
		return
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
