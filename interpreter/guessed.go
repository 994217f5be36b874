package interpreter

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// guessPoint is a branch on an unknown value that the profile's
// frequency decided: the frame, its block's code, the successor not
// taken, the stack depth and the rank's effects then.
type guessPoint struct {
	f       *frame
	bc      *blockCode
	other   int
	depth   int
	effects int64
	valid   bool
}

// retreat reports whether the known test ending f's block, about to take
// successor next toward a panic, completes a compound condition whose
// first part the last guess decided: len(out) > 0 && (to < 0 || to >=
// size) with len(out) unknown and to >= size true on the last rank. The
// blocks from the guessed branch's taken successor to the panic and to
// the branch's other successor (rest) are tests on values at hand
// (condition), f's block is one of them, and nothing was stored or
// called since the guess. The profiled run ended normally, so the guess
// took an arm the real data does not: f goes back to the guessed branch,
// whose other successor the caller jumps to, and the assumption says so.
// Every test of the condition reaches rest, so what rest needs is live,
// and kept, in all of them.
func (r *ssaRank) retreat(f *frame, next int) bool {
	g := r.lastGuess
	if g.f != f || g.depth != len(r.stack) || g.effects != r.effects {
		return false
	}
	target := f.bc.b.Succs[next]
	if _, ok := lastInstr(target).(*ssa.Panic); !ok {
		return false
	}
	guessed := g.bc.b
	if !condition(guessed.Succs[1-g.other], guessed.Succs[g.other], guessed, f.bc.b) {
		return false
	}
	r.lastGuess.valid = false
	r.assume(lastPos(guessed, len(guessed.Instrs)), "a branch on an unknown value, decided by the profiled frequency, led to the panic at %s, which the profiled run never reached: taken the other way there", r.shared.prog.Fset.Position(lastPos(target, len(target.Instrs))))
	f.block, f.bc = guessed, g.bc
	return true
}

// maxConditionBlocks bounds the tests of a compound condition retreat
// follows.
const maxConditionBlocks = 16

// condition reports whether the blocks reached from start, up to rest
// and blocks that end in a panic, are a compound condition that holds
// here: each only computes values and ends in a test or a jump, none is
// guessed (the branch itself, a loop), each reaches rest, and here is
// one of them.
func condition(start, rest, guessed, here *ssa.BasicBlock) bool {
	in := map[*ssa.BasicBlock]bool{}
	order := []*ssa.BasicBlock{start}
	in[start] = true
	for i := 0; i < len(order); i++ {
		b := order[i]
		if b == guessed || b == rest || len(order) > maxConditionBlocks || !onlyTests(b) {
			return false
		}
		for _, s := range b.Succs {
			if _, panics := lastInstr(s).(*ssa.Panic); s != rest && !panics && !in[s] {
				in[s] = true
				order = append(order, s)
			}
		}
	}
	if !in[here] {
		return false
	}
	// Every block must reach rest within the condition.
	reaches := map[*ssa.BasicBlock]bool{rest: true}
	for changed := true; changed; {
		changed = false
		for _, b := range order {
			if reaches[b] {
				continue
			}
			for _, s := range b.Succs {
				if reaches[s] {
					reaches[b], changed = true, true
					break
				}
			}
		}
	}
	for _, b := range order {
		if !reaches[b] {
			return false
		}
	}
	return true
}

// onlyTests reports whether b computes values without effects and ends
// in a test or a jump.
func onlyTests(b *ssa.BasicBlock) bool {
	for _, in := range b.Instrs {
		switch in := in.(type) {
		case *ssa.If, *ssa.Jump, *ssa.Phi, *ssa.DebugRef, *ssa.BinOp, *ssa.Convert, *ssa.ChangeType,
			*ssa.Field, *ssa.FieldAddr, *ssa.Index, *ssa.IndexAddr, *ssa.Extract:
		case *ssa.UnOp:
			if in.Op == token.ARROW {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func lastInstr(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}
