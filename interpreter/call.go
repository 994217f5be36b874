package interpreter

import (
	"go/token"
	"go/types"
	"math"

	"golang.org/x/tools/go/ssa"
)

// args evaluates a call's arguments into the shared argBuf, after recv if
// it is not nil (the receiver in invoke mode). They are valid until the
// next call: a callee copies them into its frame.
func (r *ssaRank) args(f *frame, ic *instrCode, recv *value) []value {
	out := r.shared.argBuf[:0]
	if recv != nil {
		out = append(out, *recv)
	}
	for i := range ic.args {
		out = append(out, r.get(f, &ic.args[i]))
	}
	r.shared.argBuf = out
	return out
}

// callee resolves the function a call (or defer) invokes and its arguments.
// The function value is unknown if it cannot be resolved.
func (r *ssaRank) callee(f *frame, c *ssa.CallCommon, ic *instrCode) (value, []value) {
	if c.IsInvoke() {
		recv := r.get(f, &ic.a)
		if recv.k != vIface || recv.obj == nil || recv.obj.t == nil {
			return unknown, r.args(f, ic, nil)
		}
		prog := r.shared.prog
		sel := prog.MethodSets.MethodSet(recv.obj.t).Lookup(c.Method.Pkg(), c.Method.Name())
		if sel == nil {
			return unknown, r.args(f, ic, nil)
		}
		this := recv.obj.get(0)
		return funcv(prog.MethodValue(sel)), r.args(f, ic, &this)
	}
	return r.get(f, &ic.a), r.args(f, ic, nil)
}

// call executes a call instruction: a builtin, a user function (pushed as
// a frame), an MPI operation (returned for the simulator), or a library
// function (evaluated if pure and known, else costed and unknown).
func (r *ssaRank) call(f *frame, in *ssa.Call, ic *instrCode) (bool, error) {
	if ic.callee != nil {
		// A call of a named function: no function value to evaluate.
		return r.callFunc(f, in, ic, ic.callee, r.args(f, ic, nil), nil)
	}
	fnv, args := r.callee(f, in.Common(), ic)
	switch {
	case fnv.k == vFunc && fnv.str() != "":
		v, err := r.builtin(in, fnv.str(), args)
		if err != nil {
			return false, err
		}
		if cc := ic.sized; cc != nil {
			// copy's time, which the profile took out of the region
			// around it, per element moved.
			n := cc.meanUnits
			if v.k == vInt {
				n = float64(v.i)
			}
			r.charge(n*cc.perUnit, cc.label)
		}
		r.set(f, v)
		return false, nil
	case fnv.k == vOpaque && fnv.str() == nameSeq && len(args) == 1 && r.rangeSeq(f, in, ic, fnv, args[0]):
		return false, nil
	case fnv.fun() == nil:
		if rangeOverFunc(in) {
			if len(args) == 1 && args[0].fun() != nil {
				// The body's time, which the profile took out of the
				// region around the loop.
				sum := r.shared.rangeBody(args[0].fun())
				r.charge(sum.perEntry, sum.label)
			}
			r.assume(in.Pos(), "range over an iterator function the interpreter does not know (another package's, other than slices' and maps', or of unknown length): its iterations run inside it, costed as the loop's profiled time per entry, which does not follow the rank's share of the data")
		} else {
			r.assume(in.Pos(), "call through an unknown function value: costed as a library call, result unknown")
		}
		r.opaqueCall(f, in, ic, args)
		return false, nil
	}
	return r.callFunc(f, in, ic, r.shared.callee(fnv.fun()), args, fnv.obj)
}

// callFunc calls a function with free variables free.
func (r *ssaRank) callFunc(f *frame, in *ssa.Call, ic *instrCode, ci *calleeInfo, args []value, free *object) (bool, error) {
	if ci.mpi {
		op, yield, err := r.mpiCall(f, in, ic, ci, args)
		if yield {
			r.op = op
		}
		return yield, err
	}
	if ci.user {
		// A call the profiler timed as a statement: its own time (what its
		// untimed callee spent) is charged here.
		r.chargeAt(ic.callCost, ic.callSolo, ic.callLabel)
		if len(ci.fn.Blocks) == 0 {
			return false, r.errorf(ci.fn.Pos(), "function %s has no body (assembly or external)", ci.fn)
		}
		if ci.code == nil {
			ci.code = r.shared.code(ci.fn)
		}
		return false, r.pushCode(ci.code, args, free, ic.dst)
	}
	return false, r.library(f, in, ic, ci, args)
}

// opaqueCall charges a call the interpreter does not execute and makes its
// result, and the memory its arguments reach, unknown.
func (r *ssaRank) opaqueCall(f *frame, in *ssa.Call, ic *instrCode, args []value) {
	t, guessed := libraryTime(ic, args)
	if guessed {
		lc := ic.sized.lib
		r.assume(in.Pos(), "%s is given data of a length not known here: %.0f elements assumed, %s",
			lc.Callee, lc.Unknown, lc.Why)
	}
	r.charge(t, ic.callLabel)
	for _, a := range args {
		havocValue(a)
	}
	r.set(f, unknownOf(in.Type()))
}

// libraryTime is the time of a library call given args: by their
// lengths when the oracle costs the call so (LibraryCoster) and every one
// is known; by the length the oracle gives for unknown ones (guessed)
// when it gives one; else the profiled time per call.
func libraryTime(ic *instrCode, args []value) (t float64, guessed bool) {
	lc := ic.sized
	if lc == nil || lc.lib.Args == nil {
		return ic.callCost, false
	}
	n := 0.0
	for _, i := range lc.lib.Args {
		if i >= len(args) {
			return ic.callCost, false
		}
		v := args[i]
		if v.k == vIface && v.obj != nil {
			v = v.obj.get(0) // sort.Slice(xs, less): xs's length
		}
		switch v.k {
		case vSlice:
			n += float64(v.n)
		case vString:
			n += float64(len(v.str()))
		case vNil:
		default:
			if lc.lib.Unknown <= 0 {
				return ic.callCost, false
			}
			return lc.lengthTime(lc.lib.Unknown), true
		}
	}
	return lc.lengthTime(n), false
}

// lengthTime is a library call's time given n elements in all.
func (c *sizedCost) lengthTime(n float64) float64 {
	if c.lib.NLogN {
		n *= math.Log2(max(n, 2))
	}
	return n * c.perUnit
}

func (r *ssaRank) builtin(in *ssa.Call, name string, args []value) (value, error) {
	switch name {
	case "len", "cap":
		x := args[0]
		switch x.k {
		case vSlice:
			if name == "len" {
				return intv(x.n), nil
			}
			return intv(x.c), nil
		case vString:
			return intv(int64(len(x.str()))), nil
		case vArray:
			return intv(x.n), nil
		case vNil:
			return intv(0), nil
		case vMap:
			if x.obj.m != nil {
				return intv(int64(len(x.obj.m))), nil
			}
		case vPtr: // pointer to array
			if at, ok := in.Call.Args[0].Type().Underlying().(*types.Pointer); ok {
				if a, ok := at.Elem().Underlying().(*types.Array); ok {
					return intv(a.Len()), nil
				}
			}
		}
		return unknown, nil
	case "append":
		return r.appendValues(in.Type().Underlying().(*types.Slice).Elem(), args[0], args[1]), nil
	case "copy":
		return r.copyValues(args[0], args[1]), nil
	case "min", "max":
		best := args[0]
		for _, a := range args[1:] {
			less, _ := binop(token.LSS, &a, &best, numOf(in.Call.Args[0].Type()))
			if less.k != vBool {
				return unknown, nil
			}
			if (less.i != 0) == (name == "min") {
				best = a
			}
		}
		return best, nil
	case "real", "imag":
		if args[0].k != vComplex {
			return unknown, nil
		}
		if name == "real" {
			return floatv(args[0].fl()), nil
		}
		return floatv(args[0].im()), nil
	case "complex":
		if args[0].k != vFloat || args[1].k != vFloat {
			return unknown, nil
		}
		return complexv(args[0].fl(), args[1].fl()), nil
	case "delete":
		if args[0].k == vMap && args[0].obj.m != nil {
			if k, ok := keyOf(args[1]); ok {
				delete(args[0].obj.m, k)
			} else {
				args[0].obj.havoc()
			}
		}
		return value{}, nil
	case "clear":
		x := args[0]
		switch st, _ := in.Call.Args[0].Type().Underlying().(*types.Slice); {
		case x.k == vMap && x.obj.m != nil:
			clear(x.obj.m)
		case x.k == vSlice && st != nil && x.n <= smallCopy:
			z := zeroValue(st.Elem())
			for j := range x.n {
				x.obj.set(x.i+j, copyValue(z))
			}
		default:
			havocValue(x)
		}
		return value{}, nil
	case "recover":
		if r.panicking {
			r.panicking = false
			return r.panicVal, nil
		}
		return value{k: vNil}, nil
	case "print", "println":
		return value{k: vNil}, nil
	case "ssa:wrapnilchk":
		return args[0], nil
	}
	return unknown, r.errorf(in.Pos(), "unsupported builtin %s", name)
}

// smallCopy bounds element-by-element copies; longer ones make the
// destination unknown rather than touch every element.
const smallCopy = 4096

// unknownFrom reports whether every cell of o from i on reads as
// unknown without holding a value of its own (memory a receive or
// skipped code made unknown).
func unknownFrom(o *object, i int64) bool {
	return o != nil && !o.def.known() && int64(len(o.dense)) <= i && len(o.cells) == 0
}

// appendValues is append(s, extra...) for slices of elem.
func (r *ssaRank) appendValues(elem types.Type, s, extra value) value {
	if s.k == vNil {
		s = value{k: vSlice, obj: newObject(zeroValue(elem), elem)}
	}
	var m int64
	switch extra.k {
	case vSlice:
		m = extra.n
	case vString:
		m = int64(len(extra.str()))
	case vNil:
		return s
	default:
		return unknown
	}
	// Unknown elements need no cell each (writeUnknown), however many;
	// more than smallCopy known ones are appended as unknown, as a long
	// copy writes them: the slice keeps its length (a block of 6000
	// bodies appended to an empty buffer, then sent by its length).
	asUnknown := extra.k == vSlice && unknownFrom(extra.obj, extra.i) || m > smallCopy
	if s.k != vSlice {
		return unknown
	}
	dst := s
	if s.n+m > s.c {
		o := newObject(s.obj.def, elem)
		for i, c := range s.obj.dense {
			if j := int64(i); j >= s.i && j < s.i+s.n {
				o.set(j-s.i, c)
			}
		}
		for i, c := range s.obj.cells {
			if i >= s.i && i < s.i+s.n {
				o.set(i-s.i, c)
			}
		}
		dst = value{k: vSlice, obj: o, n: s.n, c: max(2*s.c, s.n+m)}
	}
	if asUnknown && dst.obj.appendUnknown(dst.i+dst.n, m) {
		dst.n += m
		return dst
	}
	for j := range m {
		var v value
		if extra.k == vString {
			v = intv(int64(extra.str()[j]))
		} else {
			v = extra.obj.get(extra.i + j)
		}
		dst.obj.set(dst.i+dst.n+j, copyValue(v))
	}
	dst.n += m
	return dst
}

// appendUnknown is writeUnknown for an append: the cells from at+m on
// are past the slice's length, so where o holds no cell of its own from
// at on (a slice made empty with room, being filled) its default becomes
// unknown instead, the known cells before at kept as cells of their own.
func (o *object) appendUnknown(at, m int64) bool {
	if o.def.known() && len(o.cells) == 0 && int64(len(o.dense)) <= at && at <= smallCopy {
		for int64(len(o.dense)) < at {
			o.dense = append(o.dense, copyValue(o.def))
		}
		o.def = unknown
	}
	return o.writeUnknown(at, m)
}

// writeUnknown makes cells at..at+n of o unknown where that needs no
// cell per element (copied or appended unknown data: a gathered image put
// into place row by row, received rows packed by append): where o reads
// as unknown from at on already there is nothing to write, and once o
// would hold more than smallCopy cells of its own it becomes unknown as a
// whole, as a long copy makes it, rather than grow by every element. It
// reports whether it did.
func (o *object) writeUnknown(at, n int64) bool {
	switch {
	case unknownFrom(o, at):
		if o.fresh != nil {
			o.touch(at, at+n)
		}
		return true
	case int64(len(o.dense)+len(o.cells))+n > smallCopy:
		o.havoc()
		return true
	}
	return false
}

func (r *ssaRank) copyValues(dst, src value) value {
	if dst.k != vSlice {
		return unknown
	}
	var n int64
	switch src.k {
	case vSlice:
		n = min(dst.n, src.n)
	case vString:
		n = min(dst.n, int64(len(src.str())))
	default:
		dst.obj.havoc()
		return unknown
	}
	if n > smallCopy {
		dst.obj.havoc()
		return intv(n)
	}
	if src.k == vString {
		for j := range n {
			dst.obj.set(dst.i+j, intv(int64(src.str()[j])))
		}
		return intv(n)
	}
	if unknownFrom(src.obj, src.i) && dst.obj.writeUnknown(dst.i, n) {
		// Unknown elements (a gathered image copied into place row by
		// row).
		return intv(n)
	}
	// Source and destination may overlap (copy(e[1:], e) moves the
	// elements as memmove does): copying up, go from the end.
	for j := range n {
		if src.obj == dst.obj && dst.i > src.i {
			j = n - 1 - j
		}
		dst.obj.set(dst.i+j, copyValue(src.obj.get(src.i+j)))
	}
	return intv(n)
}

// rangeOverFunc reports whether call is the call of a range-over-func
// loop's iterator: its argument is the loop body's synthetic yield
// function.
func rangeOverFunc(call *ssa.Call) bool {
	for _, a := range call.Call.Args {
		if mc, ok := a.(*ssa.MakeClosure); ok {
			a = mc.Fn
		}
		if fn, ok := a.(*ssa.Function); ok && isYield(fn) {
			return true
		}
	}
	return false
}

// isYield reports whether fn is the body of a range-over-func loop, as SSA
// builds it: a synthetic function the iterator calls per element.
func isYield(fn *ssa.Function) bool { return fn.Synthetic == "range-over-func yield" }
