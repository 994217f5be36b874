package symbolic

import (
	"fmt"
	"go/token"
	"math"
)

// Update is a geometric counter's step: i *= By (MUL; i <<= k is MUL by
// 2^k), i /= By (QUO, Go's truncating division) or i >>= By (SHR).
type Update struct {
	Op token.Token
	By int64
}

func (u Update) String() string {
	switch u.Op {
	case token.MUL:
		return fmt.Sprintf("*= %d", u.By)
	case token.QUO:
		return fmt.Sprintf("/= %d", u.By)
	case token.SHR:
		return fmt.Sprintf(">>= %d", u.By)
	}
	return fmt.Sprintf("%s= %d", u.Op, u.By)
}

// Apply is the counter's next value after v, with Go's int64 semantics;
// false when a multiplication overflows.
func (u Update) Apply(v int64) (int64, bool) {
	switch u.Op {
	case token.MUL:
		if v > math.MaxInt64/u.By || v < math.MinInt64/u.By {
			return 0, false
		}
		return v * u.By, true
	case token.QUO:
		return v / u.By, true
	case token.SHR:
		return v >> uint64(u.By), true
	}
	return 0, false
}

// geomMaxSteps bounds the iterations a geometric count steps through: a
// counter multiplied by 2 or more overflows int64 within 63 steps, one
// divided by 2 or more reaches 0 (or -1, shifting) within 64.
const geomMaxSteps = 64

// GeomTripCount returns the number of iterations of
//
//	for i := init; i OP bound; i UPDATE { ... }
//
// for a growing counter (*=) tested with < <= !=, or a shrinking one (/=,
// >>=) tested with > >= !=; the update's constant is at least 2 (a
// multiplication) or 1 (a division or shift). The count is a Geometric call,
// or a constant when init and bound are.
func GeomTripCount(init, bound Expr, u Update, op token.Token) (Expr, error) {
	grows := u.Op == token.MUL
	switch {
	case u.Op != token.MUL && u.Op != token.QUO && u.Op != token.SHR:
		return nil, fmt.Errorf("symbolic: update %s is not geometric", u)
	case grows && u.By < 2, u.Op == token.QUO && u.By < 2, u.Op == token.SHR && (u.By < 1 || u.By > 63):
		return nil, fmt.Errorf("symbolic: update %s does not change the counter geometrically", u)
	case op == token.NEQ,
		grows && (op == token.LSS || op == token.LEQ),
		!grows && (op == token.GTR || op == token.GEQ):
	default:
		return nil, fmt.Errorf("symbolic: test %s with update %s does not terminate by reaching its bound", op, u)
	}
	c := &Call{Geometric, []Expr{init, bound, Const(u.By), Const(int64(u.Op)), Const(int64(op))}}
	if _, ok := init.(Const); ok {
		if _, ok := bound.(Const); ok {
			if n, err := c.Eval(nil); err == nil {
				return Const(n), nil
			}
		}
	}
	return c, nil
}

// geomCount steps a Geometric call's counter from its evaluated args.
func geomCount(args []int64) (int64, error) {
	v, bound := args[0], args[1]
	u := Update{Op: token.Token(args[3]), By: args[2]}
	op := token.Token(args[4])
	for n := int64(0); n <= geomMaxSteps; n++ {
		holds, ok := Compare(op, v, bound)
		if !ok {
			return 0, fmt.Errorf("symbolic: geometric count with test %s", op)
		}
		if !holds {
			return n, nil
		}
		next, ok := u.Apply(v)
		if !ok {
			break
		}
		v = next
	}
	return 0, fmt.Errorf("%w (counter %d, %s, test %s %d)", ErrNoTermination, args[0], u, op, bound)
}

// Compare is x OP y for a comparison operator; ok is false for others.
func Compare(op token.Token, x, y int64) (holds, ok bool) {
	switch op {
	case token.EQL:
		return x == y, true
	case token.NEQ:
		return x != y, true
	case token.LSS:
		return x < y, true
	case token.LEQ:
		return x <= y, true
	case token.GTR:
		return x > y, true
	case token.GEQ:
		return x >= y, true
	}
	return false, false
}

// geomString prints a Geometric call as the loop it counts.
func geomString(c *Call) string {
	if len(c.Args) != 5 {
		return "count(?)"
	}
	by, _ := c.Args[2].(Const)
	uop, _ := c.Args[3].(Const)
	op, _ := c.Args[4].(Const)
	return fmt.Sprintf("count(from %s while %s %s by %s)", c.Args[0], token.Token(op), c.Args[1], Update{token.Token(uop), int64(by)})
}
