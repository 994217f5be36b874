package commmodel

import (
	"errors"
	"fmt"
	"strings"
)

// Op is a collective operation.
type Op uint8

// The collective operations, named as in the mpi package.
const (
	Barrier Op = iota
	Bcast
	Reduce
	Allreduce
	Gather
	Scatter
	Allgather
	Alltoall
	numOps
)

var opNames = [...]string{"Barrier", "Bcast", "Reduce", "Allreduce", "Gather", "Scatter", "Allgather", "Alltoall"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Ops lists every collective operation.
func Ops() []Op {
	ops := make([]Op, numOps)
	for i := range ops {
		ops[i] = Op(i)
	}
	return ops
}

// ParseOp reads an operation name, case-insensitively.
func ParseOp(s string) (Op, error) {
	for i, n := range opNames {
		if strings.EqualFold(n, s) {
			return Op(i), nil
		}
	}
	return 0, fmt.Errorf("commmodel: unknown collective %q (want one of %s)", s, strings.Join(opNames[:], ", "))
}

// Algorithm is a collective algorithm.
type Algorithm uint8

// The algorithms. Not every algorithm implements every operation; see
// [Algorithms].
const (
	Linear            Algorithm = iota // root to/from each rank in turn; all pairs at once for Alltoall
	Binomial                           // binomial tree
	ScatterAllgather                   // binomial scatter + recursive-doubling allgather (ring when P is not a power of two)
	ScatterRing                        // binomial scatter + ring allgather
	RecursiveDoubling                  // exchange with rank^2^k
	Rabenseifner                       // recursive-halving reduce-scatter + recursive-doubling allgather (or binomial gather)
	Ring                               // neighbour ring
	Bruck                              // Bruck's log-step algorithm
	Pairwise                           // P-1 exchange steps with rank+-k
	Dissemination                      // dissemination barrier
	ReduceBcast                        // binomial reduce to rank 0, then binomial broadcast
	Leaders                            // node-aware all-to-all through d leaders per node (SEEDS.md 5)
	numAlgorithms
)

var algNames = [...]string{"linear", "binomial", "scatter-allgather", "scatter-ring", "recursive-doubling",
	"rabenseifner", "ring", "bruck", "pairwise", "dissemination", "reduce-bcast", "leaders"}

func (a Algorithm) String() string {
	if int(a) < len(algNames) {
		return algNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// Algorithms lists the algorithms implemented for op.
func Algorithms(op Op) []Algorithm {
	switch op {
	case Barrier:
		return []Algorithm{Linear, RecursiveDoubling, Dissemination}
	case Bcast:
		return []Algorithm{Linear, Binomial, ScatterAllgather, ScatterRing}
	case Reduce:
		return []Algorithm{Linear, Binomial, Rabenseifner}
	case Allreduce:
		return []Algorithm{RecursiveDoubling, Rabenseifner, Ring, ReduceBcast}
	case Gather, Scatter:
		return []Algorithm{Linear, Binomial}
	case Allgather:
		return []Algorithm{RecursiveDoubling, Ring, Bruck}
	case Alltoall:
		return []Algorithm{Linear, Pairwise, Bruck, Leaders}
	}
	return nil
}

// ParseAlgorithm reads an algorithm name valid for op.
func ParseAlgorithm(op Op, s string) (Algorithm, error) {
	name, _, _ := strings.Cut(s, ":")
	for _, a := range Algorithms(op) {
		if strings.EqualFold(a.String(), name) {
			return a, nil
		}
	}
	names := make([]string, 0, 4)
	for _, a := range Algorithms(op) {
		names = append(names, a.String())
	}
	return 0, fmt.Errorf("commmodel: no algorithm %q for %v (want one of %s)", s, op, strings.Join(names, ", "))
}

// ErrUnsupported reports an algorithm that does not apply to the
// requested rank count or placement.
var ErrUnsupported = errors.New("commmodel: algorithm does not apply")

// Schedule is a collective as point-to-point transfers: Ranks[r] is the
// list of steps rank r performs in order. Blocks gives the size of each
// data block the schedule moves (what a block means depends on the
// operation; see [Verify]).
type Schedule struct {
	Op        Op
	Algorithm Algorithm
	P, Bytes  int
	Root      int
	Blocks    []int
	Ranks     [][]Step
}

// Step is one step of a rank: post every receive and send, wait for all of
// them, then combine ReduceBytes bytes (a reduction's arithmetic). When
// Combine is set the received blocks are reduced into the rank's own,
// otherwise they are copies.
type Step struct {
	Sends       []Transfer
	Recvs       []Transfer
	Combine     bool
	ReduceBytes int
}

// Transfer is one message of a step: its peer, the blocks it carries and
// their total size.
type Transfer struct {
	Peer   int
	Bytes  int
	Blocks []int
}

// Steps returns the largest number of steps of any rank.
func (s *Schedule) Steps() int {
	n := 0
	for _, st := range s.Ranks {
		n = max(n, len(st))
	}
	return n
}

// builder accumulates a schedule.
type builder struct {
	s *Schedule
}

func newBuilder(op Op, alg Algorithm, p, bytes, root, nblocks int) *builder {
	s := &Schedule{Op: op, Algorithm: alg, P: p, Bytes: bytes, Root: root, Ranks: make([][]Step, p)}
	s.Blocks = split(bytes, nblocks)
	return &builder{s}
}

// split divides n bytes into k blocks whose sizes differ by at most one.
func split(n, k int) []int {
	b := make([]int, k)
	for i := range b {
		b[i] = n/k + btoi(i < n%k)
	}
	return b
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (b *builder) size(blocks []int) int {
	if b.s.Bytes == 0 {
		return 0 // a barrier's tokens: no need to add up P of them per transfer
	}
	n := 0
	for _, x := range blocks {
		n += b.s.Blocks[x]
	}
	return n
}

// step appends a step to rank r.
func (b *builder) step(r int, combine bool, sends, recvs []Transfer) {
	st := Step{Sends: sends, Recvs: recvs, Combine: combine}
	for i := range st.Sends {
		st.Sends[i].Bytes = b.size(st.Sends[i].Blocks)
	}
	for i := range st.Recvs {
		st.Recvs[i].Bytes = b.size(st.Recvs[i].Blocks)
		if combine {
			st.ReduceBytes += st.Recvs[i].Bytes
		}
	}
	b.s.Ranks[r] = append(b.s.Ranks[r], st)
}

func (b *builder) send(r, peer int, blocks []int) {
	b.step(r, false, []Transfer{{Peer: peer, Blocks: blocks}}, nil)
}

func (b *builder) recv(r, peer int, blocks []int, combine bool) {
	b.step(r, combine, nil, []Transfer{{Peer: peer, Blocks: blocks}})
}

func (b *builder) exchange(r, peer int, out, in []int, combine bool) {
	b.step(r, combine, []Transfer{{Peer: peer, Blocks: out}}, []Transfer{{Peer: peer, Blocks: in}})
}

func seq(lo, hi int) []int {
	s := make([]int, 0, max(hi-lo, 0))
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

func pof2floor(p int) int {
	k := 1
	for k*2 <= p {
		k *= 2
	}
	return k
}

func isPow2(p int) bool { return p > 0 && p&(p-1) == 0 }

func ceilLog2(p int) int {
	k := 0
	for 1<<k < p {
		k++
	}
	return k
}
