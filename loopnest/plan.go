package loopnest

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// plan decides, for every loop, whether it is reduced. A loop is the root
// of a reduced nest when nothing in it (inner loops and called program
// functions included) communicates, calls functions outside the pure
// registry or has other observable effects, its own trip count is exact and
// known at entry, and none of its results steers control flow or
// communication after it. Inner loops of a reduced nest may be
// data-dependent: their time is part of the time of one iteration of the
// nearest counted loop above them, which the profile measures.
func (a *Analyzer) plan(fa *funcAnalysis, f *Func) {
	for _, l := range f.Loops {
		rs := a.reasons(fa, l)
		if s := fa.steers(l); s != "" {
			rs = append(rs, s)
			l.Reduction.Steers = true
		}
		l.Reduction.Reasons = rs
	}
	for _, l := range f.Loops { // parents first
		switch {
		case l.Parent != nil && l.Parent.Reduction.Nest != nil:
			l.Reduction = Decision{Reducible: true, Nest: l.Parent.Reduction.Nest}
		case len(l.Reduction.Reasons) == 0:
			l.Reduction = Decision{Reducible: true, Nest: l}
		}
	}
}

// reasons are why l is not reducible, but for its results steering what
// follows (steers).
func (a *Analyzer) reasons(fa *funcAnalysis, l *Loop) []string {
	var rs []string
	if len(l.MPI) > 0 {
		rs = append(rs, "contains MPI: "+strings.Join(siteNames(l.MPI), ", "))
	}
	var impure []Site
	for _, c := range l.Calls {
		if !c.Pure {
			impure = append(impure, c)
		}
	}
	if len(impure) > 0 {
		rs = append(rs, "calls functions not known to be pure: "+strings.Join(siteNames(impure), ", "))
	}
	if len(l.Effects) > 0 {
		rs = append(rs, "has effects: "+strings.Join(siteNames(l.Effects), ", "))
	}
	switch {
	case l.Trip == nil && l.DataDependent:
		rs = append(rs, "trip count is data-dependent")
	case l.Trip == nil:
		rs = append(rs, "trip count unknown")
	case l.DataDependent:
		rs = append(rs, "trip count is data-dependent")
	case l.UpperBound:
		rs = append(rs, "trip count is only an upper bound: the loop can leave early")
	}
	return rs
}

// siteNames lists the distinct names of sites in order, with the function
// they were found in for sites in callees.
func siteNames(sites []Site) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range sites {
		n := s.Name
		if s.Via != "" {
			n += " (in " + s.Via + ")"
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// steers reports the first use outside the loop of a value computed in it
// that decides a branch, feeds a communication call, is passed to a call
// the interpreter cannot follow, or is returned as an integer, in the
// loop's function or in the program's functions it is passed to. Values
// stored to memory are not followed: the interpreter treats loaded data
// as unknown. Header phis that only trade values (l.Rotation) are not
// results the interpreter loses: it sets them from the trip count.
func (fa *funcAnalysis) steers(l *Loop) string {
	rotates := map[ssa.Value]bool{}
	if l.Rotation != nil {
		for _, p := range l.Rotation.Phis {
			rotates[p] = true
		}
	}
	for _, b := range l.Blocks {
		for _, in := range b.Instrs {
			v, ok := in.(ssa.Value)
			if !ok || v.Referrers() == nil || rotates[v] {
				continue
			}
			for _, r := range *v.Referrers() {
				if rb := r.Block(); rb == nil || l.Contains(rb) {
					continue
				}
				if why := fa.steer(r, v, fa.render(v), map[ssa.Instruction]bool{}); why != "" {
					return why
				}
			}
		}
	}
	return ""
}

// steer reports how in, a use of v, steers what the interpreter does
// (see steers), or "". A value passed to a function of the program is
// followed into it (through an interface method call, into each method
// of the program it may run), up to calleeDepth calls deep; what such a
// function returns is followed on in its caller.
func (fa *funcAnalysis) steer(in ssa.Instruction, v ssa.Value, name string, seen map[ssa.Instruction]bool) string {
	if _, ok := in.(*ssa.Return); ok && fa.caller != nil {
		// Not marked seen: the function may be called from elsewhere
		// too, and returns there differently.
		return fa.caller.fa.steerValue(fa.caller.call, name, seen)
	}
	if seen[in] || len(seen) > 512 {
		return ""
	}
	seen[in] = true
	at := func(what string) string {
		return fmt.Sprintf("its result %s %s at %s", name, what, shortPos(fa.fn.Prog.Fset, in.Pos()))
	}
	switch in := in.(type) {
	case *ssa.If:
		where := fa.pos(in.Block())
		if p := in.Cond.Pos(); p.IsValid() {
			where = shortPos(fa.fn.Prog.Fset, p)
		}
		return fmt.Sprintf("its result %s decides a branch at %s", name, where)
	case *ssa.Return:
		res := fa.fn.Signature.Results()
		for i := 0; i < res.Len(); i++ {
			if isInteger(res.At(i).Type()) {
				return at("is returned as an integer")
			}
		}
		return ""
	case *ssa.Call:
		common := in.Common()
		if _, ok := common.Value.(*ssa.Builtin); ok {
			return fa.steerValue(in, name, seen)
		}
		callee := common.StaticCallee()
		var callees []*ssa.Function
		switch {
		case callee == nil && common.IsInvoke():
			callees = fa.a.invokeCallees(fa.fn.Prog, common)
			if len(callees) == 0 {
				return at("is passed to a dynamic call")
			}
		case callee == nil:
			return at("is passed to a dynamic call")
		case fa.a.pure.Pure(callee):
			return fa.steerValue(in, name, seen)
		default:
			if path, n := qualified(callee); path == MPIPath {
				return at("is an argument of mpi." + n)
			}
			if !fa.a.own(callee) {
				return ""
			}
			callees = []*ssa.Function{callee}
		}
		for _, fn := range callees {
			if why := fa.steerInto(in, v, fn, name, seen); why != "" {
				return why
			}
		}
		return ""
	case *ssa.Phi, *ssa.BinOp, *ssa.UnOp, *ssa.Convert, *ssa.ChangeType, *ssa.Extract, *ssa.Slice, *ssa.MakeSlice:
		if u, ok := in.(*ssa.UnOp); ok && u.Op == token.MUL {
			return "" // a load: memory is not followed
		}
		return fa.steerValue(in.(ssa.Value), name, seen)
	}
	return ""
}

// calleeDepth bounds how deep steer follows a value into the functions it
// is passed to.
const calleeDepth = 4

// steerCaller is where a callee's analysis (steerInto) returns to: the
// call and the caller's analysis.
type steerCaller struct {
	call  *ssa.Call
	fa    *funcAnalysis
	depth int
}

// steerInto follows v, an argument of call, into fn, a function of the
// program the call may run: the uses of the parameters v is passed as.
func (fa *funcAnalysis) steerInto(call *ssa.Call, v ssa.Value, fn *ssa.Function, name string, seen map[ssa.Instruction]bool) string {
	depth := 1
	if fa.caller != nil {
		depth = fa.caller.depth + 1
	}
	if depth > calleeDepth || !fa.a.own(fn) || len(fn.Blocks) == 0 {
		return fmt.Sprintf("its result %s is passed to %s at %s", name, funcName(fn), shortPos(fa.fn.Prog.Fset, call.Pos()))
	}
	common := call.Common()
	shift := 0
	if common.IsInvoke() {
		shift = 1 // the receiver is Params[0], not among Args
	}
	inner := &funcAnalysis{a: fa.a, fn: fn, caller: &steerCaller{call: call, fa: fa, depth: depth}}
	for i, a := range common.Args {
		if a != v || i+shift >= len(fn.Params) {
			continue
		}
		if why := inner.steerValue(fn.Params[i+shift], name, seen); why != "" {
			return why
		}
	}
	return ""
}

func (fa *funcAnalysis) steerValue(v ssa.Value, name string, seen map[ssa.Instruction]bool) string {
	if v.Referrers() == nil {
		return ""
	}
	for _, r := range *v.Referrers() {
		if why := fa.steer(r, v, name, seen); why != "" {
			return why
		}
	}
	return ""
}
