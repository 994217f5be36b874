package symbolic

import (
	"errors"
	"testing"
)

func TestSubstitute(t *testing.T) {
	n, m, k := sym("n", Param), sym("m", Param), sym("k", Induction)
	hi := &Sym{Name: "hi", Kind: Pre, Def: NewMul(n, Const(2))}
	e := NewMax(Const(0), NewSub(hi, k))
	// n becomes m+1 in the caller's terms; k stays.
	got, err := Substitute(e, func(s *Sym) (Expr, bool, error) {
		if s == n {
			return NewAdd(m, Const(1)), true, nil
		}
		return nil, false, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	v, err := got.Eval(Names{"m": 4, "k": 3})
	if err != nil {
		t.Fatal(err)
	}
	if v != 7 { // max(0, 2*(4+1) - 3)
		t.Errorf("substituted expression = %d, want 7", v)
	}
	// The original keeps its definition.
	if v, _ := e.Eval(Names{"n": 4, "k": 3}); v != 5 {
		t.Errorf("original expression = %d, want 5", v)
	}
	bad := errors.New("no value")
	if _, err := Substitute(e, func(s *Sym) (Expr, bool, error) {
		if s == k {
			return nil, false, bad
		}
		return nil, false, nil
	}); !errors.Is(err, bad) {
		t.Errorf("Substitute error = %v, want %v", err, bad)
	}
}
