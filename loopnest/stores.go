package loopnest

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// storeSet is what a program function may write to memory, by the types
// of the values written (the alias classes mayStore works with).
type storeSet struct {
	any   bool // a write of any type: an unknown callee, a go or defer statement
	types []types.Type
	// unseen is set for writes that no load reads: map updates, clears
	// of maps, sends (neverStores counts them, has does not).
	unseen bool
}

func (s *storeSet) add(t types.Type) {
	for _, u := range s.types {
		if types.Identical(u, t) {
			return
		}
	}
	s.types = append(s.types, t)
}

func (s *storeSet) addAll(o *storeSet) {
	s.unseen = s.unseen || o.unseen
	if o.any {
		s.any = true
		return
	}
	for _, t := range o.types {
		s.add(t)
	}
}

// has reports whether a value of type t may be written.
func (s *storeSet) has(t types.Type) bool {
	if s.any {
		return true
	}
	for _, u := range s.types {
		if writesType(u, t) {
			return true
		}
	}
	return false
}

// writesType reports whether writing a value of type w may change a
// value of type t in memory: t is w, or a part of it (storing a struct
// writes its fields).
func writesType(w, t types.Type) bool {
	if types.Identical(w, t) {
		return true
	}
	switch u := w.Underlying().(type) {
	case *types.Struct:
		for f := range u.Fields() {
			if writesType(f.Type(), t) {
				return true
			}
		}
	case *types.Array:
		return writesType(u.Elem(), t)
	}
	return false
}

// builtinWrites is the type of the elements a call of builtin b writes
// (copy, clear and append write their slice's elements), nil when it
// writes no memory that a load can read; writes is false for the
// builtins that write nothing at all (len, min...), true for clear of a
// map.
func builtinWrites(b *ssa.Builtin, args []ssa.Value) (elem types.Type, writes bool) {
	switch b.Name() {
	case "copy", "clear", "append":
		if s, ok := args[0].Type().Underlying().(*types.Slice); ok {
			return s.Elem(), true
		}
		return nil, true
	}
	return nil, false
}

// stores is what fn and the functions it calls may write to memory,
// computed once: the types of its stores and of the elements its copy,
// clear and append calls write, whether it updates a map or sends (no
// load reads those, but neverStores counts them), and its callees'
// writes; any type when it calls something other than pure
// registry functions and program functions (an interface method, a
// function value, a library function) or starts a goroutine or defers a
// call. A kernel that adds into a row
// ([]float64's elements) then leaves the rows themselves ([]float64
// values in a [][]float64) unchanged for the loop that calls it.
func (a *Analyzer) stores(fn *ssa.Function, depth int) *storeSet {
	if s, ok := a.stored[fn]; ok {
		return s
	}
	s := &storeSet{}
	if depth > 8 || len(fn.Blocks) == 0 {
		s.any = true
		return s
	}
	a.stored[fn] = &storeSet{any: true} // recursion: assume it stores anything
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.Store:
				if al := rootAlloc(in.Addr); al != nil && !al.Heap {
					// The function's own stack variable (a value
					// receiver's copy, d spilled to read d.n): no caller
					// sees it.
					continue
				}
				s.add(in.Val.Type())
			case *ssa.MapUpdate, *ssa.Send:
				s.unseen = true
			case *ssa.Go, *ssa.Defer:
				s.any = true
			case *ssa.Call:
				common := in.Common()
				if bi, ok := common.Value.(*ssa.Builtin); ok {
					if t, writes := builtinWrites(bi, common.Args); t != nil {
						s.add(t)
					} else if writes {
						s.unseen = true
					}
					continue
				}
				callee := common.StaticCallee()
				switch {
				case callee == nil:
					s.any = true
				case a.pure.Pure(callee):
				case a.own(callee):
					s.addAll(a.stores(callee, depth+1))
				default:
					s.any = true
				}
			}
			if s.any {
				break
			}
		}
		if s.any {
			break
		}
	}
	a.stored[fn] = s
	return s
}
