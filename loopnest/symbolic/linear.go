package symbolic

// lin is a sum of atoms with integer coefficients plus a constant; atoms are
// expressions that are not sums. It lets the constructors cancel and merge
// terms: (hi+1)-(lo+1)+1 becomes hi-lo+1.
type lin struct {
	terms []term
	k     int64
}

type term struct {
	coef int64
	atom Expr
	key  string
}

func linear(e Expr) lin {
	switch e := e.(type) {
	case Const:
		return lin{k: int64(e)}
	case *Binary:
		switch e.Op {
		case Add:
			return linear(e.X).plus(linear(e.Y), 1)
		case Sub:
			return linear(e.X).plus(linear(e.Y), -1)
		case Mul:
			if c, ok := e.X.(Const); ok {
				return lin{}.plus(linear(e.Y), int64(c))
			}
		}
	}
	return lin{terms: []term{{1, e, e.String()}}}
}

// plus returns l + f*m.
func (l lin) plus(m lin, f int64) lin {
	out := lin{terms: append([]term(nil), l.terms...), k: l.k + f*m.k}
	for _, t := range m.terms {
		merged := false
		for i := range out.terms {
			if out.terms[i].key == t.key {
				out.terms[i].coef += f * t.coef
				merged = true
				break
			}
		}
		if !merged {
			out.terms = append(out.terms, term{f * t.coef, t.atom, t.key})
		}
	}
	return out
}

// expr rebuilds the sum: positive terms first in order of appearance, then
// the negative ones, then the constant, so it prints as hi-lo+1.
func (l lin) expr() Expr {
	var e Expr
	k := l.k
	if positive := func() bool {
		for _, t := range l.terms {
			if t.coef > 0 {
				return true
			}
		}
		return false
	}(); !positive && k != 0 {
		// 5-i rather than 0-i+5.
		e, k = Const(k), 0
	}
	for _, t := range l.terms {
		if t.coef > 0 {
			e = addTerm(e, t.coef, t.atom)
		}
	}
	for _, t := range l.terms {
		if t.coef < 0 {
			e = addTerm(e, t.coef, t.atom)
		}
	}
	switch {
	case e == nil:
		return Const(k)
	case k > 0:
		return &Binary{Add, e, Const(k)}
	case k < 0:
		return &Binary{Sub, e, Const(-k)}
	}
	return e
}

func addTerm(e Expr, coef int64, atom Expr) Expr {
	mag := coef
	if mag < 0 {
		mag = -mag
	}
	var t Expr = atom
	if mag != 1 {
		t = &Binary{Mul, Const(mag), atom}
	}
	switch {
	case e == nil && coef > 0:
		return t
	case e == nil:
		return &Binary{Sub, Const(0), t}
	case coef > 0:
		return &Binary{Add, e, t}
	}
	return &Binary{Sub, e, t}
}
