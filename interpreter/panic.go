package interpreter

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"strings"
)

// PanicError is a panic of the program itself, found on known values: a
// call of panic, or a run-time error that Go raises there too (an index
// out of range, a nil pointer dereference, an integer division by zero).
// The real program stops there in the same configuration, so there is
// no time to predict for it.
type PanicError struct {
	Pos  string // file:line:column of the instruction
	Func string // the function that panics
	Msg  string // what Go prints after "panic: "
	val  value  // what recover returns
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("%s: in %s: the program panics: %s", e.Pos, e.Func, e.Msg)
}

// panicf is the PanicError of the instruction at pos in the running
// function (positions borrowed as errorf does).
func (r *ssaRank) panicf(pos token.Pos, format string, args ...any) error {
	at, fn := r.where(pos)
	// A run-time error: recover returns a runtime.Error, not nil, whose
	// text the interpreter does not keep.
	return &PanicError{Pos: at, Func: fn, Msg: fmt.Sprintf(format, args...), val: nonNilError()}
}

// excused reports whether err, a run-time error of an instruction of f at
// pos, came on values that guessed branches chose (f.guessed): the real
// run, on its real data, need not go there (quicksort's partition loops,
// their exits taken at the profile's rates, ran an index past the end).
// The instruction's result is then taken as unknown, and the assumption
// recorded once per site; on values no guess touched the panic is the
// program's own.
func (r *ssaRank) excused(f *frame, pos token.Pos, err error) bool {
	var pe *PanicError
	if !f.guessed || !errors.As(err, &pe) {
		return false
	}
	r.assume(pos, "a run-time error (%s) on values that branches taken at their profiled frequencies chose: taken as an unknown value, not as the program's panic", runtimeErrorKind(pe.Msg))
	return true
}

// runtimeErrorKind is a run-time error's message without its numbers
// ("index out of range [5] with length 3": "index out of range"), so
// that a site's assumption is recorded once.
func runtimeErrorKind(msg string) string {
	msg = strings.TrimPrefix(msg, "runtime error: ")
	if i := strings.IndexAny(msg, "[:"); i > 0 {
		msg = msg[:i]
	}
	return strings.TrimSpace(msg)
}

// unwind runs the program's panic pe as Go does: from the innermost frame
// out, each frame's deferred calls run, and one that calls recover stops
// the panic; that frame then returns normally, through its Recover block
// (its named results as the deferred calls left them). It returns nil
// when the panic was recovered and pe when it leaves the rank's frames:
// the program dies. A panic that would unwind mpi.Main's body is fatal
// too (the rank's end is not modelled half-way).
func (r *ssaRank) unwind(pe *PanicError) error {
	for len(r.stack) > 0 {
		f := r.top()
		if f.onExit != nil {
			return pe
		}
		if len(f.defers) > 0 {
			r.panicking, r.panicVal = true, pe.val
			_, err := r.runDefers(f)
			recovered := !r.panicking
			r.panicking, r.panicVal = false, value{}
			if err != nil {
				return err
			}
			if recovered && f.fn.Recover != nil {
				return r.enter(f, -1, f.code.blocks[f.fn.Recover.Index])
			}
		}
		r.stack = r.stack[:len(r.stack)-1]
		f.code.frames = append(f.code.frames, f)
	}
	return pe
}

const nilDeref = "runtime error: invalid memory address or nil pointer dereference"

// checkIndex is the panic of indexing x (of type t: a slice, an array,
// a pointer to an array, or a string) with i, when both are known well
// enough to tell: nil when the index is in range or either is unknown.
// A slice's length is exact wherever the value is a slice; its capacity
// is not (append's growth is Go's, not ours), so only lengths are checked.
func (r *ssaRank) checkIndex(pos token.Pos, x, i value, t types.Type) error {
	if i.k != vInt {
		if x.k == vNil && isPointer(t) {
			return r.panicf(pos, nilDeref)
		}
		return nil
	}
	n, ok := int64(0), false
	switch u := t.Underlying().(type) {
	case *types.Array:
		n, ok = u.Len(), true
	case *types.Pointer:
		if x.k == vNil {
			return r.panicf(pos, nilDeref)
		}
		if a, isArray := u.Elem().Underlying().(*types.Array); isArray {
			n, ok = a.Len(), true
		}
	case *types.Slice:
		switch x.k {
		case vSlice:
			n, ok = x.n, true
		case vNil:
			n, ok = 0, true
		}
	case *types.Basic: // a string
		if x.k == vString {
			n, ok = int64(len(x.str())), true
		}
	}
	if ok && (i.i < 0 || i.i >= n) {
		return r.panicf(pos, "runtime error: index out of range [%d] with length %d", i.i, n)
	}
	return nil
}

// checkSlice is the panic of slicing with known bounds lo, hi and max
// (unknown when absent) that Go raises whatever the capacity: bounds out
// of order. A bound beyond the capacity is not caught (see checkIndex);
// beyond a string's length it is.
func (r *ssaRank) checkSlice(pos token.Pos, x, lo, hi, max value) error {
	if lo.k == vInt && lo.i < 0 {
		return r.panicf(pos, "runtime error: slice bounds out of range [%d:]", lo.i)
	}
	if x.k == vString && hi.k == vInt && hi.i > int64(len(x.str())) {
		return r.panicf(pos, "runtime error: slice bounds out of range [:%d] with length %d", hi.i, len(x.str()))
	}
	if hi.k == vInt && max.k == vInt && hi.i > max.i {
		return r.panicf(pos, "runtime error: slice bounds out of range [:%d:%d]", hi.i, max.i)
	}
	if lo.k == vInt && hi.k == vInt && lo.i > hi.i {
		return r.panicf(pos, "runtime error: slice bounds out of range [%d:%d]", lo.i, hi.i)
	}
	return nil
}

// checkMakeSlice is the panic of make([]T, n, c) with known n or c out
// of range.
func (r *ssaRank) checkMakeSlice(pos token.Pos, n, c value) error {
	if n.k == vInt && n.i < 0 {
		return r.panicf(pos, "runtime error: makeslice: len out of range")
	}
	if c.k == vInt && (c.i < 0 || n.k == vInt && c.i < n.i) {
		return r.panicf(pos, "runtime error: makeslice: cap out of range")
	}
	return nil
}

// assertPanic is the panic of a failed type assertion x.(T) without
// comma-ok, when x's dynamic type is known, worded as Go's.
func (r *ssaRank) assertPanic(pos token.Pos, x value, xt, asserted types.Type) error {
	var dyn string
	switch {
	case x.k == vNil:
		return r.panicf(pos, "interface conversion: %s is nil, not %s", goTypeName(xt), goTypeName(asserted))
	case x.k == vIface && x.obj != nil && x.obj.t != nil:
		dyn = goTypeName(x.obj.t)
	default:
		return nil
	}
	if _, isIface := asserted.Underlying().(*types.Interface); isIface {
		return r.panicf(pos, "interface conversion: %s is not %s", dyn, goTypeName(asserted))
	}
	return r.panicf(pos, "interface conversion: %s is %s, not %s", goTypeName(xt), dyn, goTypeName(asserted))
}

// goTypeName is t as Go's run time names it in panics: packages by name,
// the empty interface as "interface {}".
func goTypeName(t types.Type) string {
	if i, ok := types.Unalias(t).(*types.Interface); ok && i.Empty() {
		return "interface {}"
	}
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// panicValue is how Go prints the argument of panic, as far as the
// interpreter knows it: the dynamic value of the interface it was
// converted to when that is a number, a bool or a string, else its type.
func panicValue(v value) string {
	var t types.Type
	if v.k == vIface && v.obj != nil {
		v, t = v.obj.get(0), v.obj.t
	}
	switch v.k {
	case vString:
		return v.str()
	case vInt, vFloat, vBool, vComplex:
		return v.String()
	}
	if t != nil {
		return "a value of type " + t.String()
	}
	return "a value the interpreter does not know"
}
