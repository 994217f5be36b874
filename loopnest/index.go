package loopnest

import (
	"go/token"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"golang.org/x/tools/go/ssa"
)

// Index is an affine function of a loop's counter that the body computes:
// the global iteration it works on, Base + counter*Scale, where Base and
// Scale are fixed at the loop's entry (a rank's first row and the row
// stride). A loop over a rank's k-th row, k from 0, names the row it
// computes this way, which lets per-iteration times measured on one rank
// be assigned to the iterations any rank runs.
type Index struct {
	Base, Scale symbolic.Expr
}

// At is the index in the iteration where the counter is c.
func (ix *Index) At(env symbolic.Env, c int64) (int64, error) {
	base, err := ix.Base.Eval(env)
	if err != nil {
		return 0, err
	}
	scale, err := ix.Scale.Eval(env)
	if err != nil {
		return 0, err
	}
	return base + c*scale, nil
}

// findIndex looks for the index of a loop whose iterations are
// distributed over the ranks (its trip count depends on Rank or Size) and
// whose counter starts at a constant: the first integer addition in the
// body, in block order, of a loop-invariant value that is not a constant
// (the rank's first iteration) and the counter, or the counter times a
// loop-invariant value that is not a constant other than 1 (the stride).
// Additions of constants (k+1) and array offsets (7*n + 131*i) are not
// indices.
func (fa *funcAnalysis) findIndex(l *Loop) {
	if l.Counter == nil || l.First == nil || !l.RankSize {
		return
	}
	if _, err := l.First.Eval(symbolic.Names{}); err != nil {
		return
	}
	ctx := &exprCtx{fa: fa, loop: l}
	for _, b := range l.Blocks {
		for _, instr := range b.Instrs {
			add, ok := instr.(*ssa.BinOp)
			if !ok || add.Op != token.ADD || !isInteger(add.Type()) {
				continue
			}
			for _, pair := range [2][2]ssa.Value{{add.X, add.Y}, {add.Y, add.X}} {
				scale, ok := counterTimes(l, ctx, pair[0])
				if !ok {
					continue
				}
				base, err := ctx.expr(pair[1], 0)
				if err != nil {
					continue
				}
				if _, err := base.Eval(symbolic.Names{}); err == nil {
					continue
				}
				if s, err := scale.Eval(symbolic.Names{}); err == nil && s != 1 {
					continue
				}
				l.Index = &Index{Base: base, Scale: scale}
				return
			}
		}
	}
}

// counterTimes matches v against the loop's counter or the counter times
// a loop-invariant value, and returns that value (1 for the counter).
func counterTimes(l *Loop, ctx *exprCtx, v ssa.Value) (symbolic.Expr, bool) {
	if v == ssa.Value(l.Counter.Phi) {
		return symbolic.Const(1), true
	}
	mul, ok := v.(*ssa.BinOp)
	if !ok || mul.Op != token.MUL {
		return nil, false
	}
	for _, pair := range [2][2]ssa.Value{{mul.X, mul.Y}, {mul.Y, mul.X}} {
		if pair[0] != ssa.Value(l.Counter.Phi) {
			continue
		}
		if e, err := ctx.expr(pair[1], 0); err == nil {
			return e, true
		}
	}
	return nil, false
}

// Expr prints the index with the counter named counter.
func (ix *Index) Expr(counter string) string {
	return symbolic.NewAdd(ix.Base, symbolic.NewMul(&symbolic.Sym{Name: counter, Kind: symbolic.Induction}, ix.Scale)).String()
}
