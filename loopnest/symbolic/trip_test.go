package symbolic

import (
	"errors"
	"go/token"
	"math"
	"testing"
)

func sym(name string, kind SymKind) *Sym { return &Sym{Name: name, Kind: kind} }

// simulate runs the loop the trip count describes, for checking the
// closed forms.
func simulate(a, b, s int64, op token.Token) (int64, bool) {
	var n int64
	for i := a; ; i += s {
		if !holds(op, i, b) {
			return n, true
		}
		n++
		if n > 10000 {
			return 0, false
		}
	}
}

// holds is the loop's test i OP b.
func holds(op token.Token, i, b int64) bool {
	switch op {
	case token.LSS:
		return i < b
	case token.LEQ:
		return i <= b
	case token.GTR:
		return i > b
	case token.GEQ:
		return i >= b
	case token.NEQ:
		return i != b
	}
	panic("holds: test " + op.String())
}

func TestTripCount(t *testing.T) {
	lo, hi, n := sym("lo", Pre), sym("hi", Pre), sym("n", Param)
	tests := []struct {
		name        string
		init, bound Expr
		step        int64
		op          token.Token
		want        string
	}{
		{"i<n", Const(0), n, 1, token.LSS, "max(0, n)"},
		{"i<=n", Const(0), n, 1, token.LEQ, "max(0, n+1)"},
		{"lo<=i<hi", lo, hi, 1, token.LSS, "max(0, hi-lo)"},
		{"i+=2", lo, hi, 2, token.LSS, "max(0, (hi-lo+1)/2)"},
		{"i<=hi,i+=2", lo, hi, 2, token.LEQ, "max(0, (hi-lo+2)/2)"},
		{"i+=3", Const(1), n, 3, token.LSS, "max(0, (n+1)/3)"},
		{"descending", n, Const(0), -1, token.GTR, "max(0, n)"},
		{"descending>=", n, Const(0), -1, token.GEQ, "max(0, n+1)"},
		{"descending-=2", hi, lo, -2, token.GEQ, "max(0, (hi-lo+2)/2)"},
		{"i!=n", Const(0), n, 1, token.NEQ, "divexact(n, 1)"},
		{"i!=n by 2", lo, hi, 2, token.NEQ, "divexact(hi-lo, 2)"},
		{"len", Const(0), sym("len(a)", Len), 1, token.LSS, "len(a)"},
		{"len-1", Const(1), sym("len(a)", Len), 1, token.LSS, "max(0, len(a)-1)"},
		{"constant", Const(0), Const(10), 3, token.LSS, "4"},
		{"constant empty", Const(10), Const(0), 1, token.LSS, "0"},
	}
	binds := []Names{
		{"n": 0, "lo": 0, "hi": 0, "len(a)": 0},
		{"n": 1, "lo": 3, "hi": 3, "len(a)": 1},
		{"n": 10, "lo": 2, "hi": 11, "len(a)": 7},
		{"n": 7, "lo": 5, "hi": -4, "len(a)": 3},
		{"n": -3, "lo": -6, "hi": 6, "len(a)": 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := TripCount(tt.init, tt.bound, tt.step, tt.op)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.String(); got != tt.want {
				t.Errorf("TripCount = %s, want %s", got, tt.want)
			}
			for _, env := range binds {
				a, _ := tt.init.Eval(env)
				b, _ := tt.bound.Eval(env)
				want, terminates := simulate(a, b, tt.step, tt.op)
				got, err := e.Eval(env)
				switch {
				case !terminates && !errors.Is(err, ErrNoTermination):
					t.Errorf("%v: eval = %d, %v; want ErrNoTermination", env, got, err)
				case terminates && (err != nil || got != want):
					t.Errorf("%v: eval = %d, %v; want %d", env, got, err, want)
				}
			}
		})
	}
}

func TestTripCountRejects(t *testing.T) {
	n := sym("n", Param)
	for _, tc := range []struct {
		step int64
		op   token.Token
	}{{0, token.LSS}, {-1, token.LSS}, {1, token.GTR}, {2, token.GEQ}, {-1, token.LEQ}} {
		if e, err := TripCount(Const(0), n, tc.step, tc.op); err == nil {
			t.Errorf("TripCount(step %d, %s) = %s, want an error", tc.step, tc.op, e)
		}
	}
}

// simulateGeom runs the loop a geometric count describes, Go semantics
// (int64), giving up after 200 iterations.
func simulateGeom(a, b int64, u Update, op token.Token) (int64, bool) {
	var n int64
	for i := a; ; {
		if !holds(op, i, b) {
			return n, true
		}
		if n++; n > 200 {
			return 0, false
		}
		switch u.Op {
		case token.MUL:
			if i > math.MaxInt64/u.By || i < math.MinInt64/u.By {
				return 0, false // Go wraps; the count says it never ends
			}
			i *= u.By
		case token.QUO:
			i /= u.By
		case token.SHR:
			i >>= uint(u.By)
		}
	}
}

func TestGeomTripCount(t *testing.T) {
	a, b := sym("a", Pre), sym("b", Pre)
	values := []int64{-9, -1, 0, 1, 2, 3, 7, 8, 100, 1 << 40, math.MaxInt64 - 1}
	for _, u := range []Update{{token.MUL, 2}, {token.MUL, 3}, {token.QUO, 2}, {token.QUO, 10}, {token.SHR, 1}, {token.SHR, 3}} {
		for _, op := range []token.Token{token.LSS, token.LEQ, token.GTR, token.GEQ, token.NEQ} {
			e, err := GeomTripCount(a, b, u, op)
			grows := u.Op == token.MUL
			if valid := op == token.NEQ || grows == (op == token.LSS || op == token.LEQ); !valid {
				if err == nil {
					t.Errorf("%s with %s: %s, want an error", op, u, e)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s with %s: %v", op, u, err)
			}
			for _, x := range values {
				for _, y := range values {
					want, ends := simulateGeom(x, y, u, op)
					got, err := e.Eval(Names{"a": x, "b": y})
					switch {
					case !ends && !errors.Is(err, ErrNoTermination):
						t.Errorf("%s [a=%d b=%d]: %d, %v; the loop never ends", e, x, y, got, err)
					case ends && (err != nil || got != want):
						t.Errorf("%s [a=%d b=%d] = %d, %v; want %d", e, x, y, got, err, want)
					}
				}
			}
		}
	}
	if e, err := GeomTripCount(Const(1), Const(1024), Update{token.MUL, 2}, token.LSS); err != nil || e != Const(10) {
		t.Errorf("1 to 1024 doubling = %v, %v; want the constant 10", e, err)
	}
	for _, u := range []Update{{token.MUL, 1}, {token.QUO, 1}, {token.SHR, 0}, {token.ADD, 2}} {
		if _, err := GeomTripCount(a, b, u, token.NEQ); err == nil {
			t.Errorf("update %s: no error", u)
		}
	}
}
