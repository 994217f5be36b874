package interpreter

import "golang.org/x/tools/go/ssa"

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
// successor next, completes a compound condition whose first part the
// last guess decided, toward a panic: len(s.out) > 0 && to >= size with
// len(s.out) unknown and to >= size true on the last rank. The test's
// block is the guessed branch's taken successor, its other successor the
// guessed branch's other one (the shape of a && b and a || b), next's
// block ends in a panic, and nothing was stored or called since the
// guess. The profiled run ended normally, so the guess took an arm the
// real data does not: f goes back to the guessed branch, whose other
// successor the caller jumps to, and the assumption says so. The shape
// keeps the values f holds those of the other successor: they are live
// in the test's block, which reaches it too.
func (r *ssaRank) retreat(f *frame, next int) bool {
	g := r.lastGuess
	if g.f != f || g.depth != len(r.stack) || g.effects != r.effects {
		return false
	}
	guessed, here := g.bc.b, f.bc.b
	if guessed.Succs[1-g.other] != here || here.Succs[1-next] != guessed.Succs[g.other] {
		return false
	}
	target := here.Succs[next]
	if _, ok := lastInstr(target).(*ssa.Panic); !ok {
		return false
	}
	r.lastGuess.valid = false
	r.assume(lastPos(guessed, len(guessed.Instrs)), "a branch on an unknown value, decided by the profiled frequency, led to the panic at %s, which the profiled run never reached: taken the other way there", r.shared.prog.Fset.Position(lastPos(target, len(target.Instrs))))
	f.block, f.bc = guessed, g.bc
	return true
}

func lastInstr(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}
