package interpreter

import "fmt"

// Sharing makes the ranks of a node share its cores (processor sharing):
// while more of a node's ranks compute than it has cores, each computes at
// cores/computing of full speed. Only oversubscribed nodes need it; a
// simulation without it gives every rank a core of its own.
type Sharing struct {
	Node  []int     // node of each rank
	Cores []float64 // cores of each node
	// Quantum is how much full-speed compute a rank does before its speed
	// is decided again (seconds; 0: DefaultQuantum), or 1/maxQuanta of
	// the stretch if that is more. The simulator runs the ranks in
	// virtual-time order a quantum at a time, so a rank's speed follows
	// the others' starts and ends to within a quantum.
	Quantum float64
	// Between, when set, is the cores of each node for a rank computing
	// between its first and its last MPI operation (Last: its operations
	// in an earlier simulation of the same configuration): ranks that
	// synchronise often get fewer than Cores (the lockstep table), while
	// a set-up before the first operation, or a check after the last,
	// has the node's cores.
	Between []float64
	Last    []int
}

// DefaultQuantum is Sharing's default quantum.
const DefaultQuantum = 50e-6

// maxQuanta bounds the quanta of one compute stretch, so that an hour of
// compute is not simulated in 50 us steps.
const maxQuanta = 256

// sharedCompute is the processor-sharing state of a simulation.
type sharedCompute struct {
	*Sharing
	onNode [][]*rank // ranks per node
}

func newSharedCompute(sh *Sharing, ranks []*rank) *sharedCompute {
	c := &sharedCompute{Sharing: sh, onNode: make([][]*rank, len(sh.Cores))}
	for _, r := range ranks {
		n := sh.Node[r.id]
		c.onNode[n] = append(c.onNode[n], r)
	}
	return c
}

// startCompute begins a compute stretch of r: compute seconds at full
// speed, done in quanta by computePiece.
func (s *sim) startCompute(r *rank, compute float64) {
	q := s.sharing.Quantum
	if q <= 0 {
		q = DefaultQuantum
	}
	r.computeLeft, r.quantum, r.computeStart = compute, max(q, compute/maxQuanta), r.clock
}

// computePiece advances r by one quantum of its remaining compute (or
// what is left of it), at the speed the ranks computing beside it leave
// it. The stretch becomes one timeline segment when it ends.
func (s *sim) computePiece(r *rank) {
	c := s.sharing
	work := min(r.computeLeft, r.quantum)
	speed := 1.0
	n := c.Node[r.id]
	cores := c.Cores[n]
	if c.Between != nil && r.betweenOps(c.Last) {
		cores = c.Between[n]
	}
	if busy := float64(c.computing(r, n, r.clock)); busy > cores {
		speed = cores / busy
	}
	start := r.clock
	r.clock += work / speed
	r.stats.Compute += r.clock - start
	if k := len(r.computing); k > 0 && r.computing[k-1].end == start {
		r.computing[k-1].end = r.clock
	} else {
		r.computing = append(r.computing, span{start, r.clock})
	}
	if work < r.computeLeft {
		r.computeLeft -= work
		return
	}
	r.computeLeft = 0
	s.segment(r, Compute, r.computeStart, r.clock, r.pending)
}

// computing is the number of node n's ranks computing at t, r included.
// The others have run up to t or blocked before it (virtual-time order),
// so their compute spans say whether they compute at t; a rank at t with
// compute left is about to. A rank polling its requests in a loop of
// Tests (testUnfinished) spins on its core while it waits, and counts.
func (c *sharedCompute) computing(r *rank, n int, t float64) int {
	busy := 1
	for _, q := range c.onNode[n] {
		if q == r {
			continue
		}
		if q.computeLeft > 0 && q.clock <= t || q.polling && q.blockedAt <= t {
			busy++
			continue
		}
		if covers(q.computing, t) || covers(q.spinning, t) {
			busy++
		}
	}
	return busy
}

// covers says whether one of spans, in time order, holds t.
func covers(spans []span, t float64) bool {
	for i := len(spans) - 1; i >= 0; i-- {
		sp := spans[i]
		if sp.end <= t {
			return false
		}
		if sp.start <= t {
			return true
		}
	}
	return false
}

func (sh *Sharing) check(p int) error {
	if len(sh.Node) != p {
		return fmt.Errorf("interpreter: sharing: %d node numbers for %d ranks", len(sh.Node), p)
	}
	for r, n := range sh.Node {
		if n < 0 || n >= len(sh.Cores) {
			return fmt.Errorf("interpreter: sharing: rank %d on node %d of %d", r, n, len(sh.Cores))
		}
	}
	for n, c := range sh.Cores {
		if !(c > 0) {
			return fmt.Errorf("interpreter: sharing: node %d has %g cores", n, c)
		}
	}
	if sh.Between != nil && len(sh.Between) != len(sh.Cores) {
		return fmt.Errorf("interpreter: sharing: %d nodes' cores between operations for %d nodes", len(sh.Between), len(sh.Cores))
	}
	for n, c := range sh.Between {
		if !(c > 0) {
			return fmt.Errorf("interpreter: sharing: node %d has %g cores between operations", n, c)
		}
	}
	return nil
}
