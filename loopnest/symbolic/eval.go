package symbolic

import (
	"errors"
	"fmt"

	"golang.org/x/tools/go/ssa"
)

// Env supplies the values of symbols.
type Env interface {
	// Lookup returns the value bound to s, if any.
	Lookup(s *Sym) (int64, bool)
}

// Names binds symbols by name.
type Names map[string]int64

// Lookup implements Env.
func (n Names) Lookup(s *Sym) (int64, bool) {
	v, ok := n[s.Name]
	return v, ok
}

// Values binds symbols by the SSA value they stand for; an interpreter that
// knows a rank's values uses it.
type Values map[ssa.Value]int64

// Lookup implements Env.
func (m Values) Lookup(s *Sym) (int64, bool) {
	if s.Value == nil {
		return 0, false
	}
	v, ok := m[s.Value]
	return v, ok
}

// Chain looks symbols up in each environment in turn.
type Chain []Env

// Lookup implements Env.
func (c Chain) Lookup(s *Sym) (int64, bool) {
	for _, e := range c {
		if e == nil {
			continue
		}
		if v, ok := e.Lookup(s); ok {
			return v, true
		}
	}
	return 0, false
}

// UnboundError reports a symbol that has neither a binding nor a definition.
type UnboundError struct{ Sym *Sym }

func (e *UnboundError) Error() string {
	return fmt.Sprintf("symbolic: no value for %s (%s)", e.Sym.Name, e.Sym.Kind)
}

// ErrDivideByZero is returned when a divisor evaluates to zero.
var ErrDivideByZero = errors.New("symbolic: division by zero")

// ErrStepNotPositive is returned when a Checked step is not positive.
var ErrStepNotPositive = errors.New("symbolic: the loop's step is not positive")

// ErrNoTermination is returned by divexact when the loop it describes never
// reaches its bound (a != test that steps over it).
var ErrNoTermination = errors.New("symbolic: the loop never reaches its bound")

// Eval implements Expr.
func (c Const) Eval(Env) (int64, error) { return int64(c), nil }

// MemEnv is an environment that can read memory at the entry of the
// code the expressions describe: the integer at the end of the path (or,
// with length, the length of the slice, array or string there), the
// indices of Elem steps evaluated. Chain passes the question on to its
// members.
type MemEnv interface {
	LookupMem(base ssa.Value, steps []ResolvedStep, length bool) (int64, bool)
}

// ResolvedStep is a MemStep with its index evaluated.
type ResolvedStep struct {
	Field int
	Index int64
}

// LookupMem implements MemEnv.
func (c Chain) LookupMem(base ssa.Value, steps []ResolvedStep, length bool) (int64, bool) {
	for _, e := range c {
		if m, ok := e.(MemEnv); ok {
			if v, ok := m.LookupMem(base, steps, length); ok {
				return v, true
			}
		}
	}
	return 0, false
}

// Eval implements Expr: the binding if env has one, else the memory it
// stands for, else the definition.
func (s *Sym) Eval(env Env) (int64, error) {
	if env != nil {
		if v, ok := env.Lookup(s); ok {
			return v, nil
		}
	}
	if s.Mem != nil {
		if v, ok, err := s.Mem.read(env, s.Kind == Len); err != nil {
			return 0, err
		} else if ok {
			return v, nil
		}
	}
	if s.Def != nil {
		return s.Def.Eval(env)
	}
	return 0, &UnboundError{s}
}

func (m *MemPath) read(env Env, length bool) (int64, bool, error) {
	me, ok := env.(MemEnv)
	if !ok {
		return 0, false, nil
	}
	steps := make([]ResolvedStep, len(m.Steps))
	for i, st := range m.Steps {
		steps[i].Field = st.Field
		if st.Index != nil {
			k, err := st.Index.Eval(env)
			if err != nil {
				return 0, false, err
			}
			steps[i].Index = k
		}
	}
	v, ok := me.LookupMem(m.Base, steps, length)
	return v, ok, nil
}

// Eval implements Expr.
func (b *Binary) Eval(env Env) (int64, error) {
	x, err := b.X.Eval(env)
	if err != nil {
		return 0, err
	}
	y, err := b.Y.Eval(env)
	if err != nil {
		return 0, err
	}
	return apply(b.Op, x, y)
}

func apply(op Op, x, y int64) (int64, error) {
	switch op {
	case Add:
		return x + y, nil
	case Sub:
		return x - y, nil
	case Mul:
		return x * y, nil
	case Div, Rem:
		if y == 0 {
			return 0, ErrDivideByZero
		}
		if op == Div {
			return x / y, nil
		}
		return x % y, nil
	}
	return 0, fmt.Errorf("symbolic: unknown operator %d", op)
}

// Eval implements Expr.
func (c *Call) Eval(env Env) (int64, error) {
	args := make([]int64, len(c.Args))
	for i, a := range c.Args {
		v, err := a.Eval(env)
		if err != nil {
			return 0, err
		}
		args[i] = v
	}
	switch c.Fn {
	case Min, Max:
		r := args[0]
		for _, v := range args[1:] {
			if (c.Fn == Min) == (v < r) {
				r = v
			}
		}
		return r, nil
	case DivExact:
		if args[1] == 0 {
			return 0, ErrDivideByZero
		}
		if args[0]%args[1] != 0 || args[0]/args[1] < 0 {
			return 0, ErrNoTermination
		}
		return args[0] / args[1], nil
	case Checked:
		if args[0] <= 0 {
			return 0, fmt.Errorf("%w: %s = %d", ErrStepNotPositive, c.Args[0], args[0])
		}
		return args[0], nil
	case Geometric:
		return geomCount(args)
	}
	return 0, fmt.Errorf("symbolic: unknown function %d", c.Fn)
}
