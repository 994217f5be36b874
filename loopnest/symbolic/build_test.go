package symbolic

import (
	"errors"
	"testing"
)

func TestBuildPrintEval(t *testing.T) {
	rank, size, n := sym("rank", Rank), sym("size", Size), sym("n", Param)
	i := sym("i", Induction)
	lo := &Sym{Name: "lo", Kind: Pre, Def: NewDiv(NewMul(rank, n), size)}
	hi := &Sym{Name: "hi", Kind: Pre, Def: NewDiv(NewMul(NewAdd(rank, Const(1)), n), size)}
	tests := []struct {
		name string
		e    Expr
		want string
		env  Names
		val  int64
	}{
		{"fold", NewAdd(Const(2), NewMul(Const(3), Const(4))), "14", nil, 14},
		{"cancel", NewSub(NewAdd(hi, Const(1)), NewAdd(lo, Const(1))), "hi-lo", Names{"rank": 1, "size": 4, "n": 10}, 5 - 2},
		{"merge", NewAdd(NewAdd(n, n), NewSub(i, n)), "n+i", Names{"n": 3, "i": 4}, 7},
		{"distribute", NewMul(Const(2), NewSub(n, Const(1))), "2*n-2", Names{"n": 5}, 8},
		{"neg", NewSub(Const(5), i), "5-i", Names{"i": 7}, -2},
		{"neg only", NewNeg(i), "0-i", Names{"i": 7}, -7},
		{"rank rows", NewDiv(NewMul(NewAdd(rank, Const(1)), n), size), "(rank+1)*n/size", Names{"rank": 2, "n": 10, "size": 3}, 10},
		{"right div", NewMul(n, NewDiv(i, Const(2))), "n*(i/2)", Names{"n": 3, "i": 5}, 6},
		{"right sub", NewSub(n, NewSub(i, NewMul(i, n))), "n+i*n-i", Names{"n": 2, "i": 3}, 5},
		{"rem", NewRem(NewSub(Const(0), n), Const(4)), "(0-n)%4", Names{"n": 7}, -3},
		{"trunc", NewDiv(NewNeg(n), Const(2)), "(0-n)/2", Names{"n": 7}, -3},
		{"max drop", NewMax(Const(0), sym("len(a)", Len)), "len(a)", Names{"len(a)": 3}, 3},
		{"max keep", NewMax(Const(0), NewSub(n, i)), "max(0, n-i)", Names{"n": 2, "i": 5}, 0},
		{"min", NewMin(n, Const(4), Const(9), n), "min(4, n)", Names{"n": 6}, 4},
		{"def fallback", NewSub(hi, lo), "hi-lo", Names{"rank": 3, "size": 4, "n": 10}, 10 - 7},
		{"binding wins", NewSub(hi, lo), "hi-lo", Names{"hi": 9, "lo": 1}, 8},
		{"div by one", NewDiv(n, Const(1)), "n", Names{"n": 2}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.e.String(); got != tt.want {
				t.Errorf("String = %q, want %q", got, tt.want)
			}
			got, err := tt.e.Eval(tt.env)
			if err != nil || got != tt.val {
				t.Errorf("Eval = %d, %v; want %d", got, err, tt.val)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	n := sym("n", Param)
	var unbound *UnboundError
	if _, err := NewAdd(n, Const(1)).Eval(Names{}); !errors.As(err, &unbound) || unbound.Sym != n {
		t.Errorf("unbound: err = %v", err)
	}
	if _, err := NewDiv(Const(1), n).Eval(Names{"n": 0}); !errors.Is(err, ErrDivideByZero) {
		t.Errorf("div by zero: err = %v", err)
	}
	if _, err := NewDivExact(n, Const(2)).Eval(Names{"n": 3}); !errors.Is(err, ErrNoTermination) {
		t.Errorf("divexact: err = %v", err)
	}
}
