package prediction

import (
	"go/types"
	"math"

	"golang.org/x/tools/go/ssa"

	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/loopnest"
)

// A filter keeps some elements of a slice in another (`keep := s.parts[:0];
// for ... { if ok { keep = append(keep, q) } }; s.parts = keep`): the kept
// slice is a variable of the loop (a phi of its header), not memory, and
// the reduced nest that skips the loop left it unknown, so the next loop
// over it took its count from the profile's run, made with the profile's
// arguments (docs/validation/outside-2026-11-28n, fault 7: a particle
// count from a profile at an eighth of the size, -85 % at P = 1). Its
// length after an entry is known closely enough: its length at entry,
// plus the loop's iterations times how often an iteration reaches each
// append, which the profile's branch counts give.

// phiGrowths returns the header phis of root that only ever take the
// value they had at entry or one element appended to it in an iteration
// (in no inner loop), with their counts: for each, the appends an entry
// makes, from the iterations and the profiled share of iterations that
// reach each append. Nil when there are none, or when the loop does not
// leave by its header (a break after an append would leave another
// value).
func (o *Oracle) phiGrowths(root *loopnest.Loop, in map[*ssa.BasicBlock]bool, exitFrom *ssa.BasicBlock) ([]interpreter.PhiGrowth, func(interpreter.Binder) ([]int64, error)) {
	if exitFrom != root.Header {
		return nil, nil
	}
	var grows []interpreter.PhiGrowth
	var shares []float64
	var reach map[*ssa.BasicBlock]float64
	for _, instr := range root.Header.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		sl, ok := phi.Type().Underlying().(*types.Slice)
		if !ok {
			continue
		}
		entry, appends, ok := appendCarried(phi, in)
		if !ok || len(appends) == 0 {
			continue
		}
		if reach == nil {
			if reach = o.reachPerIteration(root); reach == nil {
				return nil, nil
			}
		}
		share := 0.0
		for _, call := range appends {
			f, ok := reach[call.Block()]
			if !ok || innermost(root, call.Block()) != root {
				share = -1
				break
			}
			share += f
		}
		if share < 0 {
			continue
		}
		grows = append(grows, interpreter.PhiGrowth{Phi: phi, Entry: entry, Elem: sl.Elem()})
		shares = append(shares, share)
		name := phi.Comment
		if name == "" {
			name = phi.Name()
		}
		o.note(root.Func.Prog.Fset, appends[0].Pos(), "nest %s appends to %s: after it, %s is taken as its length at entry plus %.3g of the nest's iterations, the profiled share of iterations that append to it",
			root.ID, name, name, share)
	}
	if len(grows) == 0 {
		return nil, nil
	}
	counts := func(bind interpreter.Binder) ([]int64, error) {
		iters, err := loopnest.IterationsOwn(root, binderEnv{bind})
		if err != nil {
			return nil, err
		}
		n := make([]int64, len(shares))
		for i, s := range shares {
			n[i] = int64(math.Round(float64(iters[root]) * s))
		}
		return n, nil
	}
	return grows, counts
}

// appendCarried reports whether phi, a header phi of the nest whose
// blocks are in, takes one value from outside the nest (entry) and
// otherwise only itself, phis of the nest over such values, or a
// one-element append to one of those (the appends).
func appendCarried(phi *ssa.Phi, in map[*ssa.BasicBlock]bool) (entry ssa.Value, appends []*ssa.Call, ok bool) {
	for i, v := range phi.Edges {
		if !in[phi.Block().Preds[i]] {
			if entry != nil {
				return nil, nil, false
			}
			entry = v
		}
	}
	if entry == nil {
		return nil, nil, false
	}
	seen := map[ssa.Value]bool{phi: true}
	var carried func(v ssa.Value) bool
	carried = func(v ssa.Value) bool {
		if seen[v] {
			return true
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Phi:
			if !in[v.Block()] {
				return false
			}
			for _, e := range v.Edges {
				if !carried(e) {
					return false
				}
			}
			return true
		case *ssa.Call:
			if _, ok := appendCall(v); !ok || len(v.Call.Args) != 2 || appendedElems(v.Call.Args[1]) != 1 || !in[v.Block()] {
				return false
			}
			appends = append(appends, v)
			return carried(v.Call.Args[0])
		}
		return false
	}
	for i, v := range phi.Edges {
		if in[phi.Block().Preds[i]] && !carried(v) {
			return nil, nil, false
		}
	}
	return entry, appends, true
}

// reachPerIteration is, for each block of root's body outside its inner
// loops, the profiled share of root's iterations that run it: 1 where
// the body begins, each If's share of true outcomes (the oracle's branch
// probabilities) down the body, which without the back edges to the
// header is acyclic. Nil when a branch on the way has no profiled share
// or the body holds inner loops.
func (o *Oracle) reachPerIteration(root *loopnest.Loop) map[*ssa.BasicBlock]float64 {
	if len(root.Inner) > 0 {
		return nil
	}
	body := map[*ssa.BasicBlock]bool{}
	for _, b := range root.Blocks {
		body[b] = true
	}
	h := root.Header
	reach := map[*ssa.BasicBlock]float64{}
	// The iteration starts where the header stays in the loop.
	switch h.Instrs[len(h.Instrs)-1].(type) {
	case *ssa.If:
		stay := 0
		for _, s := range h.Succs {
			if body[s] && s != h {
				stay++
				reach[s] = 1
			}
		}
		if stay != 1 {
			return nil
		}
	case *ssa.Jump:
		reach[h] = 1
	default:
		return nil
	}
	// Blocks in an order where each comes after its predecessors in the
	// body (the header's back edges left out).
	var order []*ssa.BasicBlock
	state := map[*ssa.BasicBlock]int{} // 1 visiting, 2 done
	var visit func(b *ssa.BasicBlock) bool
	visit = func(b *ssa.BasicBlock) bool {
		switch state[b] {
		case 1:
			return false // a cycle other than through the header
		case 2:
			return true
		}
		state[b] = 1
		for _, s := range b.Succs {
			if body[s] && s != h && !visit(s) {
				return false
			}
		}
		state[b] = 2
		order = append(order, b)
		return true
	}
	for b := range reach {
		if !visit(b) {
			return nil
		}
	}
	for i := len(order) - 1; i >= 0; i-- {
		b := order[i]
		f := reach[b]
		if f == 0 {
			continue
		}
		switch b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.If:
			p, ok := o.branch[b]
			if !ok {
				return nil
			}
			for j, s := range b.Succs {
				if body[s] && s != h {
					reach[s] += f * takenRate(p, j)
				}
			}
		case *ssa.Jump:
			if s := b.Succs[0]; body[s] && s != h {
				reach[s] += f
			}
		}
	}
	return reach
}
