package symbolic

import (
	"fmt"
	"go/token"
)

// TripCount returns the number of iterations of
//
//	for i := init; i OP bound; i += step { ... }
//
// with OP one of < <= > >= != and the loop body not leaving early: the
// number of values init, init+step, ... that satisfy the test before the
// first that fails. Ranges that are empty give 0; steps other than ±1 round
// up. It fails for loops that run forever or until overflow (i < n with a
// negative step, a zero step).
func TripCount(init, bound Expr, step int64, op token.Token) (Expr, error) {
	up := step > 0
	mag := step
	if !up {
		mag = -step
	}
	switch {
	case step == 0:
		return nil, fmt.Errorf("symbolic: zero step")
	case op == token.NEQ && up:
		return NewDivExact(NewSub(bound, init), Const(mag)), nil
	case op == token.NEQ:
		return NewDivExact(NewSub(init, bound), Const(mag)), nil
	case (op == token.LSS || op == token.LEQ) && up:
		d := NewSub(bound, init)
		return countUp(d, mag, op == token.LEQ), nil
	case (op == token.GTR || op == token.GEQ) && !up:
		d := NewSub(init, bound)
		return countUp(d, mag, op == token.GEQ), nil
	}
	return nil, fmt.Errorf("symbolic: test %s with step %d does not terminate by reaching its bound", op, step)
}

// countUp is the number of k >= 0 with k*s < d (or <= d when inclusive):
// max(0, ceil(d/s)), or max(0, floor(d/s)+1). With truncating division
// (d+s-1)/s is ceil(d/s) for d > 0 and at most 0 otherwise, so max(0, ...)
// makes it exact for every d.
func countUp(d Expr, s int64, inclusive bool) Expr {
	add := s - 1
	if inclusive {
		add = s
	}
	return NewMax(Const(0), NewDiv(NewAdd(d, Const(add)), Const(s)))
}

// TripCountBy is TripCount for a symbolic step that is known to be
// positive (Positive(step)), such as Size() in i += size.
func TripCountBy(init, bound, step Expr, op token.Token) (Expr, error) {
	if c, ok := step.(Const); ok {
		return TripCount(init, bound, int64(c), op)
	}
	if !Positive(step) {
		return nil, fmt.Errorf("symbolic: step %s is not known to be positive", step)
	}
	d := NewSub(bound, init)
	switch op {
	case token.LSS:
		return NewMax(Const(0), NewDiv(NewSub(NewAdd(d, step), Const(1)), step)), nil
	case token.LEQ:
		return NewMax(Const(0), NewDiv(NewAdd(d, step), step)), nil
	case token.NEQ:
		return NewDivExact(d, step), nil
	}
	return nil, fmt.Errorf("symbolic: test %s with a positive step does not terminate by reaching its bound", op)
}

// Positive reports whether e is provably > 0: positive constants, Size(),
// and sums and products of such terms with non-negative ones.
func Positive(e Expr) bool {
	switch e := e.(type) {
	case Const:
		return e > 0
	case *Sym:
		return e.Kind == Size || e.Def != nil && Positive(e.Def)
	case *Binary:
		switch e.Op {
		case Add:
			return Positive(e.X) && NonNegative(e.Y) || NonNegative(e.X) && Positive(e.Y)
		case Mul:
			return Positive(e.X) && Positive(e.Y)
		}
	case *Call:
		if e.Fn == Checked {
			return true
		}
		if e.Fn == Max {
			for _, a := range e.Args {
				if Positive(a) {
					return true
				}
			}
		}
	}
	return false
}
