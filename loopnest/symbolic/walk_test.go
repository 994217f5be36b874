package symbolic

import (
	"go/token"
	"slices"
	"testing"
)

func TestSymbolsAndUses(t *testing.T) {
	rank, size, n, i := sym("rank", Rank), sym("size", Size), sym("n", Param), sym("i", Induction)
	hi := &Sym{Name: "hi", Kind: Pre, Def: NewDiv(NewMul(NewAdd(rank, Const(1)), n), size)}
	e := NewMax(Const(0), NewSub(NewSub(hi, i), NewMin(n, i)))
	var names []string
	for _, s := range Symbols(e) {
		names = append(names, s.Name)
	}
	if want := []string{"hi", "i", "n"}; !slices.Equal(names, want) {
		t.Errorf("Symbols = %v, want %v", names, want)
	}
	if !Uses(e, func(s *Sym) bool { return s.Kind == Rank }) {
		t.Error("Uses does not look into hi's definition")
	}
	if Uses(e, func(s *Sym) bool { return s.Name == "m" }) {
		t.Error("Uses found a symbol that is not there")
	}
}

func TestTripCountBy(t *testing.T) {
	rank, size, n := sym("rank", Rank), sym("size", Size), sym("n", Param)
	tests := []struct {
		op   token.Token
		want string
	}{
		{token.LSS, "max(0, (n+size-rank-1)/size)"},
		{token.LEQ, "max(0, (n+size-rank)/size)"},
		{token.NEQ, "divexact(n-rank, size)"},
	}
	for _, tt := range tests {
		e, err := TripCountBy(rank, n, size, tt.op)
		if err != nil {
			t.Fatal(err)
		}
		if e.String() != tt.want {
			t.Errorf("%s: %s, want %s", tt.op, e, tt.want)
		}
		if tt.op == token.NEQ {
			continue
		}
		for _, b := range []Names{{"rank": 0, "size": 3, "n": 10}, {"rank": 2, "size": 3, "n": 10}, {"rank": 5, "size": 8, "n": 3}, {"rank": 1, "size": 1, "n": 1}} {
			want, _ := simulate(b["rank"], b["n"], b["size"], tt.op)
			if got, err := e.Eval(b); err != nil || got != want {
				t.Errorf("%s %v: %d, %v; want %d", tt.op, b, got, err, want)
			}
		}
	}
	if _, err := TripCountBy(Const(0), n, sym("k", Param), token.LSS); err == nil {
		t.Error("TripCountBy accepted a step of unknown sign")
	}
	if _, err := TripCountBy(Const(0), n, size, token.GTR); err == nil {
		t.Error("TripCountBy accepted i > n with a positive step")
	}
}

func TestSigns(t *testing.T) {
	size, n, l := sym("size", Size), sym("n", Param), sym("len(a)", Len)
	for _, tt := range []struct {
		e             Expr
		nonNeg, posit bool
	}{
		{Const(0), true, false},
		{Const(3), true, true},
		{size, true, true},
		{l, true, false},
		{n, false, false},
		{NewAdd(size, l), true, true},
		{NewMul(size, Const(2)), true, true},
		{NewSub(size, Const(1)), false, false},
		{NewMax(Const(1), n), true, true},
		{NewMin(l, size), true, false},
		{NewDiv(l, size), true, false},
	} {
		if got := NonNegative(tt.e); got != tt.nonNeg {
			t.Errorf("NonNegative(%s) = %v", tt.e, got)
		}
		if got := Positive(tt.e); got != tt.posit {
			t.Errorf("Positive(%s) = %v", tt.e, got)
		}
	}
}
