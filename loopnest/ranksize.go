package loopnest

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// dependsOnRankSize reports whether v may be computed from Rank() or
// Size(). It follows arithmetic, phis, the arguments of calls of the
// program's own functions (a result is taken to depend on the arguments),
// and, for parameters and free variables, the values passed at every call
// site and closure creation in the program: a row count computed from the
// rank in main and passed to a kernel makes the kernel's row loop depend on
// the rank.
func (a *Analyzer) dependsOnRankSize(v ssa.Value, seen map[ssa.Value]bool) bool {
	return a.dependsOnCall(v, seen, isRankSize)
}

// dependsOnRank reports whether v may be computed from Rank(), as
// dependsOnRankSize follows it: a count of this rank's share, not of the
// rank count.
func (a *Analyzer) dependsOnRank(v ssa.Value) bool {
	return a.dependsOnCall(v, map[ssa.Value]bool{}, func(fn *ssa.Function) bool {
		path, name := qualified(fn)
		return path == MPIPath && name == "Comm.Rank"
	})
}

// dependsOnCall is dependsOnRankSize for the calls match accepts.
func (a *Analyzer) dependsOnCall(v ssa.Value, seen map[ssa.Value]bool, match func(*ssa.Function) bool) bool {
	if v == nil || seen[v] || len(seen) > 1024 {
		return false
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Call:
		common := v.Common()
		if callee := common.StaticCallee(); callee != nil {
			if match(callee) {
				return true
			}
			if !a.own(callee) {
				return false
			}
		} else if b, ok := common.Value.(*ssa.Builtin); !ok || (b.Name() != "min" && b.Name() != "max") {
			return false
		}
		for _, arg := range common.Args {
			if a.dependsOnCall(arg, seen, match) {
				return true
			}
		}
	case *ssa.Extract:
		return a.dependsOnCall(v.Tuple, seen, match)
	case *ssa.BinOp:
		return a.dependsOnCall(v.X, seen, match) || a.dependsOnCall(v.Y, seen, match)
	case *ssa.UnOp:
		return v.Op != token.MUL && a.dependsOnCall(v.X, seen, match)
	case *ssa.Convert:
		return a.dependsOnCall(v.X, seen, match)
	case *ssa.Phi:
		for _, e := range v.Edges {
			if a.dependsOnCall(e, seen, match) {
				return true
			}
		}
	case *ssa.Parameter:
		fn := v.Parent()
		idx := -1
		for i, p := range fn.Params {
			if p == v {
				idx = i
			}
		}
		for _, site := range a.callSites()[fn] {
			if args := site.Args; idx >= 0 && idx < len(args) && a.dependsOnCall(args[idx], seen, match) {
				return true
			}
		}
	case *ssa.FreeVar:
		fn := v.Parent()
		for i, fv := range fn.FreeVars {
			if fv != v {
				continue
			}
			for _, mc := range a.closures()[fn] {
				if i < len(mc.Bindings) && a.dependsOnCall(mc.Bindings[i], seen, match) {
					return true
				}
			}
		}
	}
	return false
}

// callSites indexes the static calls of the program's own functions by
// callee, once.
func (a *Analyzer) callSites() map[*ssa.Function][]*ssa.CallCommon {
	a.indexCalls()
	return a.calls
}

func (a *Analyzer) closures() map[*ssa.Function][]*ssa.MakeClosure {
	a.indexCalls()
	return a.makes
}

// usedAsValue is the set of functions that appear other than as the callee
// of a static call (a function value, a closure, a method value): they
// may be called from anywhere.
func (a *Analyzer) usedAsValue() map[*ssa.Function]bool {
	a.indexCalls()
	return a.values
}

func (a *Analyzer) indexCalls() {
	if a.calls != nil {
		return
	}
	a.calls = map[*ssa.Function][]*ssa.CallCommon{}
	a.makes = map[*ssa.Function][]*ssa.MakeClosure{}
	a.values = map[*ssa.Function]bool{}
	var rands []*ssa.Value
	for _, fn := range a.all {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				var callee *ssa.Value
				switch in := in.(type) {
				case ssa.CallInstruction:
					callee = &in.Common().Value
					if callee := in.Common().StaticCallee(); callee != nil {
						a.calls[callee] = append(a.calls[callee], in.Common())
					}
				case *ssa.MakeClosure:
					if fn, ok := in.Fn.(*ssa.Function); ok {
						a.makes[fn] = append(a.makes[fn], in)
					}
				}
				for _, r := range in.Operands(rands[:0]) {
					if f, ok := (*r).(*ssa.Function); ok && r != callee {
						a.values[f] = true
					}
				}
			}
		}
	}
}

// isRankSize reports whether fn is Comm.Rank or Comm.Size of package mpi.
func isRankSize(fn *ssa.Function) bool {
	path, name := qualified(fn)
	return path == MPIPath && (name == "Comm.Rank" || name == "Comm.Size")
}

// CommOf is the communicator a call of Comm.Rank or Comm.Size is made on
// (its receiver), or nil when v is not such a call.
func CommOf(v ssa.Value) ssa.Value {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	if callee := call.Common().StaticCallee(); callee == nil || !isRankSize(callee) {
		return nil
	}
	if args := call.Common().Args; len(args) == 1 {
		return args[0]
	}
	return nil
}
