package commmodel

import (
	"errors"
	"fmt"
)

// ErrTooLarge reports a schedule too large to build and replay.
var ErrTooLarge = errors.New("commmodel: schedule too large")

// maxQuadraticP bounds P for algorithms whose schedules hold O(P^2)
// transfers, so that a bad rank count cannot exhaust memory.
const maxQuadraticP = 1024

func quadratic(op Op, alg Algorithm) bool {
	return op == Alltoall || alg == Ring || alg == ScatterRing ||
		(op == Bcast && alg == ScatterAllgather) // its ring fallback
}

// Options tune schedule generation: the placement is needed by the
// node-aware algorithms; Leaders is the number of leaders per node of the
// Leaders all-to-all (0: one).
type Options struct {
	Placement *Placement
	Leaders   int
}

// Generate builds the schedule of op over p ranks with algorithm alg.
// Bytes is the whole buffer for Bcast, Reduce and Allreduce, and the block
// one rank sends to one peer for Gather, Scatter, Allgather and Alltoall.
// It returns an error wrapping ErrUnsupported when the algorithm does not
// apply (e.g. recursive-doubling allgather on a P that is not a power of
// two).
func Generate(op Op, alg Algorithm, p, bytes, root int, opt Options) (*Schedule, error) {
	if p < 1 || p > 1<<16 {
		return nil, fmt.Errorf("commmodel: rank count %d out of range", p)
	}
	if bytes < 0 {
		return nil, fmt.Errorf("commmodel: negative message size %d", bytes)
	}
	if root < 0 || root >= p {
		return nil, fmt.Errorf("commmodel: root %d out of range for %d ranks", root, p)
	}
	if p > maxQuadraticP && quadratic(op, alg) {
		return nil, fmt.Errorf("%w: %v/%v on %d ranks moves P^2 messages; schedules stop at %d ranks (use the closed form)", ErrTooLarge, op, alg, p, maxQuadraticP)
	}
	ok := false
	for _, a := range Algorithms(op) {
		ok = ok || a == alg
	}
	if !ok {
		return nil, fmt.Errorf("%w: %v has no %v algorithm", ErrUnsupported, op, alg)
	}
	perRank := func(n int) *builder {
		b := newBuilder(op, alg, p, bytes, root, n)
		for i := range b.s.Blocks {
			b.s.Blocks[i] = bytes
		}
		return b
	}
	var b *builder
	switch op {
	case Barrier:
		b = newBuilder(op, alg, p, 0, 0, p)
		switch alg {
		case Linear:
			linearBarrier(b)
		case RecursiveDoubling:
			recursiveDoublingBarrier(b)
		case Dissemination:
			disseminationBarrier(b)
		}
	case Bcast:
		switch alg {
		case Linear:
			b = newBuilder(op, alg, p, bytes, root, 1)
			linearBcast(b, []int{0})
		case Binomial:
			b = newBuilder(op, alg, p, bytes, root, 1)
			binomialBcast(b, func(int) []int { return []int{0} })
		case ScatterAllgather, ScatterRing:
			b = newBuilder(op, alg, p, bytes, root, p)
			binomialBcast(b, func(v int) []int { return subtree(v, p, root) })
			own := func(r int) []int { return []int{r} }
			if alg == ScatterAllgather && isPow2(p) {
				recursiveDoublingAllgather(b, own)
			} else {
				ringAllgather(b, own)
			}
		}
	case Reduce:
		switch alg {
		case Linear:
			b = newBuilder(op, alg, p, bytes, root, 1)
			linearToRoot(b, func(int) []int { return []int{0} }, true)
		case Binomial:
			b = newBuilder(op, alg, p, bytes, root, 1)
			binomialReduce(b, func(int) []int { return []int{0} }, true)
		case Rabenseifner:
			b = newBuilder(op, alg, p, bytes, root, pof2floor(p))
			rabenseifnerReduce(b)
		}
	case Allreduce:
		switch alg {
		case RecursiveDoubling:
			b = newBuilder(op, alg, p, bytes, 0, 1)
			recursiveDoublingAllreduce(b)
		case Rabenseifner:
			b = newBuilder(op, alg, p, bytes, 0, pof2floor(p))
			rabenseifnerAllreduce(b)
		case Ring:
			b = newBuilder(op, alg, p, bytes, 0, p)
			ringAllreduce(b)
		case ReduceBcast:
			b = newBuilder(op, alg, p, bytes, 0, 1)
			one := func(int) []int { return []int{0} }
			binomialReduce(b, one, true)
			binomialBcast(b, one)
		}
	case Gather:
		b = perRank(p)
		if alg == Linear {
			linearToRoot(b, func(r int) []int { return []int{r} }, false)
		} else {
			binomialReduce(b, func(v int) []int { return subtree(v, p, root) }, false)
		}
	case Scatter:
		b = perRank(p)
		if alg == Linear {
			linearFromRootInTurn(b, func(r int) []int { return []int{r} })
		} else {
			binomialBcast(b, func(v int) []int { return subtree(v, p, root) })
		}
	case Allgather:
		b = perRank(p)
		switch alg {
		case RecursiveDoubling:
			if !isPow2(p) {
				return nil, fmt.Errorf("%w: recursive-doubling allgather needs a power of two ranks, not %d", ErrUnsupported, p)
			}
			recursiveDoublingAllgather(b, func(r int) []int { return []int{r} })
		case Ring:
			ringAllgather(b, func(r int) []int { return []int{r} })
		case Bruck:
			bruckAllgather(b)
		}
	case Alltoall:
		b = perRank(p * p)
		switch alg {
		case Linear:
			linearAlltoall(b)
		case Pairwise:
			pairwiseAlltoall(b)
		case Bruck:
			bruckAlltoall(b)
		case Leaders:
			d := max(opt.Leaders, 1)
			if err := leaderAlltoall(b, opt.Placement, d); err != nil {
				return nil, err
			}
		}
	}
	if b == nil {
		return nil, fmt.Errorf("%w: %v has no %v algorithm", ErrUnsupported, op, alg)
	}
	return b.s, nil
}
