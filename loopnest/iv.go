package loopnest

import (
	"go/constant"
	"go/token"
	"strings"

	"github.com/parpredict/parpredict/loopnest/symbolic"

	"golang.org/x/tools/go/ssa"
)

// findIVs returns the induction variables of l: integer header phis whose
// edges from outside the loop all carry one value and whose edges from
// inside all carry phi+c (or phi-c) for one constant c, or phi+s for a
// loop-invariant s that is provably positive (Size()).
func (fa *funcAnalysis) findIVs(l *Loop) []*IV {
	var ivs []*IV
	for _, in := range l.Header.Instrs {
		phi, ok := in.(*ssa.Phi)
		if !ok {
			continue
		}
		if !isInteger(phi.Type()) {
			continue
		}
		var init, stepVal ssa.Value
		var geom symbolic.Update
		ok = true
		for i, e := range phi.Edges {
			if !l.Contains(l.Header.Preds[i]) {
				if init != nil && !sameValue(init, e) {
					ok = false
				}
				init = e
				continue
			}
			if u, isGeom := geomStepOf(e, phi); isGeom && stepVal == nil {
				if geom.Op != 0 && geom != u {
					ok = false
				}
				geom = u
				continue
			}
			sv, isStep := fa.stepOf(l, e, phi)
			if !isStep || geom.Op != 0 || (stepVal != nil && !sameValue(sv, stepVal)) {
				ok = false
				continue
			}
			stepVal = sv
		}
		if !ok || init == nil || stepVal == nil && geom.Op == 0 {
			continue
		}
		iv := &IV{Phi: phi, Name: phi.Comment, Geom: geom}
		switch {
		case strings.HasPrefix(iv.Name, "range"):
			// go/ssa's hidden counter of a range loop (rangeindex,
			// rangeint.iter).
			iv.Name = "range"
		case iv.Name == "":
			iv.Name = phi.Name()
		}
		ctx := &exprCtx{fa: fa, loop: l}
		if geom.Op != 0 {
			// half *= 2: counted by GeomTripCount, enumerated by
			// stepping (Update.Apply).
		} else if c, isConst := intConst(stepVal); isConst {
			if c == 0 {
				continue
			}
			iv.Step = c
		} else if e, err := ctx.expr(stepVal, 0); err == nil && len(ctx.dataDep) == 0 {
			// for i := rank; i < n; i += size: a cyclic distribution.
			// A step not provably positive (a stride parameter) is
			// checked when the count is evaluated.
			iv.StepExpr = symbolic.NewChecked(e)
		} else {
			continue
		}
		if e, err := ctx.expr(init, 0); err == nil {
			// j := i+1 names the initial value j, the variable itself.
			if s, ok := e.(*symbolic.Sym); ok && s.Name == iv.Name && s.Def != nil {
				e = s.Def
			}
			iv.Init = e
		}
		ivs = append(ivs, iv)
		fa.ivs[phi] = iv
		fa.ivInit[iv] = init
		fa.ivStep[iv] = stepVal
	}
	return ivs
}

// stepOf recognises v = phi+s with s invariant in l, or phi-c for a
// constant c, and returns the step value (a negated constant for phi-c).
func (fa *funcAnalysis) stepOf(l *Loop, v ssa.Value, phi *ssa.Phi) (ssa.Value, bool) {
	b, ok := v.(*ssa.BinOp)
	if !ok || !isInteger(b.Type()) {
		return nil, false
	}
	switch {
	case b.Op == token.ADD && b.X == phi && fa.invariant(l, b.Y):
		return b.Y, true
	case b.Op == token.ADD && b.Y == phi && fa.invariant(l, b.X):
		return b.X, true
	case b.Op == token.SUB && b.X == phi:
		if c, ok := intConst(b.Y); ok {
			return ssa.NewConst(constant.MakeInt64(-c), b.Y.Type()), true
		}
	}
	return nil, false
}

// geomStepOf recognises v = phi*c, c*phi or phi<<k (a growing counter,
// c >= 2, k >= 1), or phi/c or phi>>k (a shrinking one) for constants c,
// k, and returns the update.
func geomStepOf(v ssa.Value, phi *ssa.Phi) (symbolic.Update, bool) {
	b, ok := v.(*ssa.BinOp)
	if !ok || !isInteger(b.Type()) {
		return symbolic.Update{}, false
	}
	var u symbolic.Update
	switch {
	case b.Op == token.MUL && b.X == phi:
		u.Op = token.MUL
		u.By, ok = intConst(b.Y)
	case b.Op == token.MUL && b.Y == phi:
		u.Op = token.MUL
		u.By, ok = intConst(b.X)
	case b.Op == token.SHL && b.X == phi:
		var k int64
		if k, ok = intConst(b.Y); ok && k >= 1 && k <= 62 {
			u.Op, u.By = token.MUL, int64(1)<<k
		}
	case (b.Op == token.QUO || b.Op == token.SHR) && b.X == phi:
		u.Op = b.Op
		u.By, ok = intConst(b.Y)
	default:
		return symbolic.Update{}, false
	}
	if !ok || u.Op == 0 || u.By < 1 || u.By < 2 && u.Op != token.SHR || u.Op == token.SHR && u.By > 63 {
		return symbolic.Update{}, false
	}
	if isUnsigned(phi.Type()) {
		// Go's unsigned arithmetic wraps where Update.Apply's int64
		// does not: leave such counters to the profile.
		return symbolic.Update{}, false
	}
	return u, true
}

// offsetOf returns c when v is x+c, c+x or x-c for a constant c, and 0 when
// v is x itself.
func offsetOf(v, x ssa.Value) (int64, bool) {
	if v == x {
		return 0, true
	}
	b, ok := v.(*ssa.BinOp)
	if !ok {
		return 0, false
	}
	switch {
	case b.Op == token.ADD && b.X == x:
		return intConst(b.Y)
	case b.Op == token.ADD && b.Y == x:
		return intConst(b.X)
	case b.Op == token.SUB && b.X == x:
		c, ok := intConst(b.Y)
		return -c, ok
	}
	return 0, false
}

func intConst(v ssa.Value) (int64, bool) {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(k.Value)
}

// sameValue reports whether a and b are the same value: the same SSA value
// or equal constants (go/ssa makes a new *Const per use).
func sameValue(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	ka, ok1 := a.(*ssa.Const)
	kb, ok2 := b.(*ssa.Const)
	return ok1 && ok2 && ka.Value != nil && kb.Value != nil && constant.Compare(ka.Value, token.EQL, kb.Value)
}
