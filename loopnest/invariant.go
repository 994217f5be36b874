package loopnest

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// invariant reports whether v has the same value in every iteration of l:
// it is defined outside l, or computed inside it (Go re-evaluates a for
// condition such as i < len(a)-1 in every iteration) by pure operations
// from invariant operands, or loaded through an invariant address that
// nothing in l may store to.
func (fa *funcAnalysis) invariant(l *Loop, v ssa.Value) bool {
	memo := fa.inv[l]
	if memo == nil {
		memo = map[ssa.Value]bool{}
		fa.inv[l] = memo
	}
	if r, ok := memo[v]; ok {
		return r
	}
	memo[v] = false // cycles through phis are not invariant
	r := fa.computeInvariant(l, v)
	memo[v] = r
	return r
}

func (fa *funcAnalysis) computeInvariant(l *Loop, v ssa.Value) bool {
	b := blockOf(v)
	if b == nil || !l.Contains(b) {
		return true
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		return fa.invariant(l, v.X) && fa.invariant(l, v.Y)
	case *ssa.Convert:
		return fa.invariant(l, v.X)
	case *ssa.ChangeType:
		return fa.invariant(l, v.X)
	case *ssa.UnOp:
		switch v.Op {
		case token.ARROW:
			return false
		case token.MUL:
			if !fa.invariant(l, v.X) {
				return false
			}
			if root := localRoot(v.X); root != nil {
				// A local variable whose address never escapes changes
				// only by stores to it in the loop.
				return !storesTo(l, root)
			}
			return !fa.mayStore(l, loadOf(v))
		}
		return fa.invariant(l, v.X)
	case *ssa.FieldAddr:
		return fa.invariant(l, v.X)
	case *ssa.Field:
		return fa.invariant(l, v.X)
	case *ssa.IndexAddr:
		// A constant element of an array field (z <= b.size[2]) is
		// invariant as a field is. Not a slice's element: that is data
		// (a CSR row's end, rowptr[i+1]).
		_, isConst := v.Index.(*ssa.Const)
		return isConst && IsArrayPointer(v.X.Type()) && fa.invariant(l, v.X)
	case *ssa.Call:
		common := v.Common()
		if b, ok := common.Value.(*ssa.Builtin); ok {
			switch b.Name() {
			case "len", "cap", "min", "max":
				for _, a := range common.Args {
					if !fa.invariant(l, a) {
						return false
					}
				}
				return true
			}
		}
		if callee := common.StaticCallee(); callee != nil && isRankSize(callee) {
			return true
		}
		loads, ok := fa.pureIntCall(v)
		if !ok {
			return false
		}
		for _, a := range common.Args {
			if !fa.invariant(l, a) {
				return false
			}
		}
		for _, t := range loads {
			if fa.mayStore(l, loaded{t: t}) {
				return false
			}
		}
		return true
	}
	return false
}

// pureIntCall reports whether call is of a program function that stores
// nothing and returns one integer computed from its parameters
// (computedFromParams): a method giving a loop's bound, d.Local(). loads
// are the types of the fields it reads through pointer parameters.
func (fa *funcAnalysis) pureIntCall(call *ssa.Call) (loads []types.Type, ok bool) {
	f := call.Common().StaticCallee()
	if f == nil {
		return nil, false
	}
	return fa.pureIntResult(call, SingleResult(f))
}

// pureIntResult is pureIntCall for res, one of the results of call's
// callee (lo, hi := span(n, size, r)).
func (fa *funcAnalysis) pureIntResult(call *ssa.Call, res ssa.Value) (loads []types.Type, ok bool) {
	f := call.Common().StaticCallee()
	if f == nil || res == nil || len(f.FreeVars) > 0 || !fa.a.own(f) || !fa.a.neverStores(f, 0) {
		return nil, false
	}
	return computedFromParams(f, res, 0)
}

// mayStore reports whether l may write a value of type t to memory: a
// store of that type, a program function that may (stores), or a call
// that is not known to be pure. Types are
// the alias classes; this is coarse but sound for Go without unsafe.
func (fa *funcAnalysis) mayStore(l *Loop, ld loaded) bool {
	t := ld.t
	for _, b := range l.Blocks {
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.Store:
				if ld.field && sliceElement(in.Addr) {
					// A struct's field is no element of a slice's
					// array (s.out[o] = append(s.out[o], v) does not
					// write s.data, both []int32).
					continue
				}
				if writesType(in.Val.Type(), t) {
					return true
				}
			case *ssa.Call:
				common := in.Common()
				if bi, ok := common.Value.(*ssa.Builtin); ok {
					if bi.Name() != "copy" && bi.Name() != "clear" {
						continue
					}
					// They write a slice's elements (no struct's field:
					// for p := 0; p < g.size; p++ { copy(g.data[...],
					// ...) } keeps g.size), or a map's cells, which no
					// load reads.
					elem, _ := builtinWrites(bi, common.Args)
					if elem != nil && !ld.field && writesType(elem, t) {
						return true
					}
					continue
				}
				callee := common.StaticCallee()
				switch {
				case callee == nil:
					return true
				case fa.a.pure.Pure(callee) || fa.a.storesNothing(callee, common.Args):
				case fa.a.own(callee):
					if fa.a.stores(callee, 0).has(t) {
						return true
					}
				default:
					return true
				}
			case *ssa.Go, *ssa.Defer:
				return true
			}
		}
	}
	return false
}

// loaded is a type a count reads from memory; field says that the cell
// read is a struct's field (not an array's element, nor what a pointer
// points to), which no store into a slice's element can write.
type loaded struct {
	t     types.Type
	field bool
}

// loadOf is what load ld reads: a struct's field when ld reads through a
// field's address and the field is not an array (whose elements a slice
// of it shares).
func loadOf(ld *ssa.UnOp) loaded {
	_, fromField := ld.X.(*ssa.FieldAddr)
	return loaded{t: ld.Type(), field: fromField && !isArray(ld.Type())}
}

func isArray(t types.Type) bool {
	_, ok := t.Underlying().(*types.Array)
	return ok
}

// sliceElement reports whether addr is the address of an element of a
// slice (not of an array a pointer points to, which may be a field).
func sliceElement(addr ssa.Value) bool {
	ia, ok := addr.(*ssa.IndexAddr)
	if !ok {
		return false
	}
	_, isSlice := ia.X.Type().Underlying().(*types.Slice)
	return isSlice
}

// storingLoop is the first of loops that may write a value of one of the
// types ts (mayStore), nil when none may: a count read along a path
// whose loads have those types stays as read at the nest's entry.
func (a *Analyzer) storingLoop(loops []*Loop, ts ...loaded) *Loop {
	fa := &funcAnalysis{a: a}
	for _, l := range loops {
		for _, t := range ts {
			if fa.mayStore(l, t) {
				return l
			}
		}
	}
	return nil
}

// localRoot returns the Alloc that addr points into (through field and
// element addresses) when that Alloc's address never escapes: it is only
// loaded from, stored to, or indexed. Nil otherwise.
func localRoot(addr ssa.Value) *ssa.Alloc {
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
			continue
		case *ssa.IndexAddr:
			if _, ok := a.X.Type().Underlying().(*types.Pointer); !ok {
				return nil // indexing a slice: the backing array is shared
			}
			addr = a.X
			continue
		case *ssa.Alloc:
			if escapes(a, 0) {
				return nil
			}
			return a
		}
		return nil
	}
}

func escapes(v ssa.Value, depth int) bool {
	if depth > 8 || v.Referrers() == nil {
		return true
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return true
			}
		case *ssa.Store:
			if r.Val == v {
				return true
			}
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			if escapes(r, depth+1) {
				return true
			}
		case *ssa.IndexAddr:
			if escapes(r, depth+1) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// storesTo reports whether a block of l stores into root.
func storesTo(l *Loop, root *ssa.Alloc) bool {
	for _, b := range l.Blocks {
		for _, in := range b.Instrs {
			if st, ok := in.(*ssa.Store); ok && rootAlloc(st.Addr) == root {
				return true
			}
		}
	}
	return false
}

func rootAlloc(addr ssa.Value) *ssa.Alloc {
	a, _ := AddrRoot(addr).(*ssa.Alloc)
	return a
}

// AddrRoot is the value an address is computed from by field addresses,
// element addresses and slicing: the variable, parameter or pointer whose
// memory a store to addr writes.
func AddrRoot(addr ssa.Value) ssa.Value {
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			addr = a.X
		case *ssa.Slice:
			addr = a.X
		default:
			return addr
		}
	}
}

// storesNothing reports whether a call of the program function fn with
// args can store nothing its caller sees: fn is no closure, does nothing
// but what the pure registry does (no MPI, no effects, stores to package
// variables being effects), and no argument can reach memory.
func (a *Analyzer) storesNothing(fn *ssa.Function, args []ssa.Value) bool {
	if !a.own(fn) {
		return false
	}
	if a.neverStores(fn, 0) {
		// A method like (*block).at(i, j), which only computes: its
		// pointer arguments do not matter.
		return true
	}
	if len(fn.FreeVars) > 0 {
		return false
	}
	for _, arg := range args {
		if MayReachMemory(arg.Type()) {
			return false
		}
	}
	s := a.funcSummary(fn)
	return len(s.mpi) == 0 && len(s.effects) == 0 && allPure(s.calls)
}

// neverStores reports whether fn, and the program functions it calls,
// write no memory at all: no store, map update, send, copy, clear or
// append, and no call of anything else than pure registry functions and
// other such program functions (stores has nothing to say).
func (a *Analyzer) neverStores(fn *ssa.Function, depth int) bool {
	s := a.stores(fn, depth)
	return !s.any && !s.unseen && len(s.types) == 0
}

// MayReachMemory reports whether a value of type t can point to memory:
// numbers, booleans, strings and structs and arrays of them cannot.
func MayReachMemory(t types.Type) bool {
	return mayReach(t, 0)
}

func mayReach(t types.Type, depth int) bool {
	if depth > 8 {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Struct:
		for i := range u.NumFields() {
			if mayReach(u.Field(i).Type(), depth+1) {
				return true
			}
		}
		return false
	case *types.Array:
		return mayReach(u.Elem(), depth+1)
	}
	return true
}

// IsArrayPointer reports whether t is a pointer to an array.
func IsArrayPointer(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = p.Elem().Underlying().(*types.Array)
	return ok
}
