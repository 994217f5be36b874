package symbolic

import (
	"golang.org/x/tools/go/ssa"
)

// Expr is an integer expression. Its dynamic type is Const, *Sym, *Binary or
// *Call.
type Expr interface {
	// String prints the expression in Go syntax.
	String() string
	// Eval computes the value under env with Go int64 semantics.
	Eval(env Env) (int64, error)
	prec() int
}

// Const is an integer constant.
type Const int64

// SymKind says what a symbol stands for.
type SymKind int

// Symbol kinds.
const (
	Param     SymKind = iota // a parameter of the function
	FreeVar                  // a free variable of a closure (or a value loaded from one)
	Rank                     // the result of Comm.Rank()
	Size                     // the result of Comm.Size()
	Len                      // len(x)
	Cap                      // cap(x)
	Pre                      // a value computed before the loop
	Induction                // the induction variable of an enclosing loop
	Mem                      // an integer read from memory (Sym.Mem)
)

var symKindNames = [...]string{"param", "freevar", "rank", "size", "len", "cap", "pre", "induction", "mem"}

func (k SymKind) String() string {
	if int(k) < len(symKindNames) {
		return symKindNames[k]
	}
	return "symkind?"
}

// MarshalText names the kind in JSON output.
func (k SymKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Sym is a named unknown.
type Sym struct {
	Name string
	Kind SymKind
	// Value is the SSA value the symbol stands for, so that an interpreter
	// can bind it; nil for symbols made up by hand, and for the len of a
	// string ranged over (go/ssa computes no len there: see Of).
	Value ssa.Value
	// Of is the operand of a Len or Cap symbol: the slice, array, string
	// or map whose length the symbol is.
	Of ssa.Value
	// Def, when non-nil, is the symbol's definition in terms of other
	// symbols (a value computed before the loop from parameters, Rank(),
	// ...). Evaluation falls back to it when the environment has no binding.
	Def Expr
	// Mem, when non-nil, says where in memory the symbol's value is read:
	// a value loaded (or, for a Len symbol, the length of a slice loaded)
	// along a path from a value the evaluator knows. Evaluation asks an
	// environment that implements MemEnv, after the binding of Value.
	Mem *MemPath
}

// MemPath is memory reached from Base through Steps.
type MemPath struct {
	Base  ssa.Value
	Steps []MemStep
}

// MemStep is one load of a MemPath: with Field >= 0 the field of the
// struct the current pointer points to; with Field == Deref what the
// pointer points to; with Field == Elem element Index of the current
// slice or array.
type MemStep struct {
	Field int
	Index Expr
}

// MemStep fields other than struct fields.
const (
	Deref = -1
	Elem  = -2
)

// Op is a binary operator.
type Op int

// Binary operators.
const (
	Add Op = iota
	Sub
	Mul
	Div // Go's /, truncating toward zero
	Rem // Go's %
)

var opNames = [...]string{"+", "-", "*", "/", "%"}

func (o Op) String() string { return opNames[o] }

// Binary is X Op Y.
type Binary struct {
	Op   Op
	X, Y Expr
}

// Func names the functions a Call can apply.
type Func int

// Functions.
const (
	Min Func = iota
	Max
	// DivExact is x/y when y divides x and the quotient is non-negative; the
	// evaluation fails otherwise (a `!=` loop that never reaches its bound).
	DivExact
	// Checked is its argument when that is positive; the evaluation fails
	// otherwise. It guards a loop's step that the analysis cannot prove
	// positive (i += stride, stride a parameter): the count holds for the
	// steps the program really takes, and an evaluator learns when not.
	Checked
	// Geometric is the trip count of a loop whose counter is multiplied,
	// divided or shifted right by a constant each iteration (half *= 2,
	// s /= 2): Args are the initial value, the bound, the constant and the
	// update and the test (Const-encoded, see GeomTripCount). It is
	// evaluated by stepping the counter, at most 64 times: past that a
	// factor of 2 or more has overflowed or reached a fixed point, and the
	// evaluation fails as for a loop that never reaches its bound.
	Geometric
)

var funcNames = [...]string{"min", "max", "divexact", "checked", "count"}

func (f Func) String() string { return funcNames[f] }

// Call is Fn(Args...).
type Call struct {
	Fn   Func
	Args []Expr
}

func (Const) prec() int { return 4 }
func (*Sym) prec() int  { return 4 }
func (*Call) prec() int { return 4 }
func (b *Binary) prec() int {
	switch b.Op {
	case Add, Sub:
		return 1
	default:
		return 2
	}
}
