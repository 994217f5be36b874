package symbolic

// The constructors below simplify as they build; callers never make a
// *Binary or *Call directly, so every expression is in the normal form that
// these functions produce.

// NewAdd returns x+y.
func NewAdd(x, y Expr) Expr { return linear(x).plus(linear(y), 1).expr() }

// NewSub returns x-y.
func NewSub(x, y Expr) Expr { return linear(x).plus(linear(y), -1).expr() }

// NewNeg returns -x.
func NewNeg(x Expr) Expr { return NewSub(Const(0), x) }

// NewMul returns x*y.
func NewMul(x, y Expr) Expr {
	cx, xok := x.(Const)
	cy, yok := y.(Const)
	switch {
	case xok && yok:
		return cx * cy
	case yok:
		return NewMul(y, x)
	case xok && cx == 0:
		return Const(0)
	case xok && cx == 1:
		return y
	case xok:
		// Distribute a constant over a sum so sums stay linear.
		return linear(Const(0)).plus(linear(y), int64(cx)).expr()
	}
	return &Binary{Mul, x, y}
}

// NewDiv returns x/y with Go's truncating division.
func NewDiv(x, y Expr) Expr {
	cx, xok := x.(Const)
	cy, yok := y.(Const)
	switch {
	case yok && cy == 1:
		return x
	case xok && yok && cy != 0:
		return cx / cy
	}
	return &Binary{Div, x, y}
}

// NewRem returns x%y with Go's remainder.
func NewRem(x, y Expr) Expr {
	cx, xok := x.(Const)
	cy, yok := y.(Const)
	switch {
	case yok && (cy == 1 || cy == -1):
		return Const(0)
	case xok && yok && cy != 0:
		return cx % cy
	}
	return &Binary{Rem, x, y}
}

// NewMin returns min(args...).
func NewMin(args ...Expr) Expr { return minmax(Min, args) }

// NewMax returns max(args...).
func NewMax(args ...Expr) Expr { return minmax(Max, args) }

func minmax(fn Func, args []Expr) Expr {
	var out []Expr
	var k Const
	haveK := false
	for _, a := range args {
		if c, ok := a.(Const); ok {
			if !haveK || (fn == Min) == (c < k) {
				k = c
			}
			haveK = true
			continue
		}
		dup := false
		for _, o := range out {
			dup = dup || o.String() == a.String()
		}
		if !dup {
			out = append(out, a)
		}
	}
	if haveK {
		// max(0, x) is x when x cannot be negative.
		if fn == Max && k <= 0 && len(out) == 1 && NonNegative(out[0]) {
			return out[0]
		}
		out = append([]Expr{k}, out...)
	}
	if len(out) == 1 {
		return out[0]
	}
	return &Call{fn, out}
}

// NewDivExact returns divexact(x, y): x/y when that is exact and
// non-negative, an evaluation error otherwise.
func NewDivExact(x, y Expr) Expr {
	if cy, ok := y.(Const); ok && cy == 1 && NonNegative(x) {
		return x
	}
	if cx, ok := x.(Const); ok {
		if cy, ok := y.(Const); ok && cy != 0 && cx%cy == 0 && cx/cy >= 0 {
			return cx / cy
		}
	}
	return &Call{DivExact, []Expr{x, y}}
}

// NonNegative reports whether e is provably >= 0 for every binding that the
// program can produce (len, cap, Rank() and Size() are never negative).
func NonNegative(e Expr) bool {
	switch e := e.(type) {
	case Const:
		return e >= 0
	case *Sym:
		switch e.Kind {
		case Len, Cap, Rank, Size:
			return true
		}
		return e.Def != nil && NonNegative(e.Def)
	case *Binary:
		switch e.Op {
		case Add, Mul, Div, Rem:
			return NonNegative(e.X) && NonNegative(e.Y)
		}
	case *Call:
		switch e.Fn {
		case Max:
			for _, a := range e.Args {
				if NonNegative(a) {
					return true
				}
			}
		case Min:
			for _, a := range e.Args {
				if !NonNegative(a) {
					return false
				}
			}
			return true
		case DivExact, Checked, Geometric:
			return true
		}
	}
	return false
}

// NewChecked returns checked(x): x, evaluated only when positive.
func NewChecked(x Expr) Expr {
	if Positive(x) {
		return x
	}
	return &Call{Checked, []Expr{x}}
}
