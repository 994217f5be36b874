package interpreter

import (
	"fmt"
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// A buffer whose length the interpreter lost (packed from data it does
// not know) at an MPI call the profile never reached has no profiled size
// of its own. The same function often sends the same data at another call
// the profile did reach: an exchange that sends with Send on the first
// rank and with Sendrecv on the interior ones, which a profile of one or
// two ranks never runs. That call's profiled size stands in.

// sameDataSize is the answer of sameDataBytes for one argument of one
// call, found once per simulation.
type sameDataSize struct {
	bytes float64
	site  string // the call whose size it is ("file.go:line mpi.Send")
	ok    bool
}

// sameDataBytes returns the profiled mean payload of another MPI call in
// the function of call in that passes the same data as in's argument i
// (the same SSA value, or a load of the same variable or field), and
// that call's site and operation.
func (r *ssaRank) sameDataBytes(in ssa.CallInstruction, ic *instrCode, i int, ss SiteSizer) (float64, string, bool) {
	if got, ok := ic.sameData[i]; ok {
		return got.bytes, got.site, got.ok
	}
	var found sameDataSize
	args := in.Common().Args
	if i < len(args) && in.Parent() != nil {
		found = r.findSameData(in, args[i], ss)
	}
	if ic.sameData == nil {
		ic.sameData = map[int]sameDataSize{}
	}
	ic.sameData[i] = found
	return found.bytes, found.site, found.ok
}

func (r *ssaRank) findSameData(in ssa.CallInstruction, buf ssa.Value, ss SiteSizer) sameDataSize {
	fset := r.shared.prog.Fset
	for _, b := range in.Parent().Blocks {
		for _, instr := range b.Instrs {
			other, ok := instr.(ssa.CallInstruction)
			if !ok || other == in {
				continue
			}
			fn := other.Common().StaticCallee()
			if fn == nil || !isMPI(fn) {
				continue
			}
			name := mpiName(fn)
			for _, a := range other.Common().Args {
				if !sameData(a, buf) {
					continue
				}
				site := mpiSite(fset, other.Pos())
				if bytes, ok := ss.SiteBytes(site, name); ok {
					return sameDataSize{bytes, fmt.Sprintf("%s mpi.%s", site, name), true}
				}
			}
		}
	}
	return sameDataSize{}
}

// sameData reports whether a and b are the same data: the same value,
// loads of the same variable or field, or the same slice of such.
func sameData(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	switch a := a.(type) {
	case *ssa.UnOp:
		b, ok := b.(*ssa.UnOp)
		return ok && a.Op == token.MUL && b.Op == token.MUL && sameAddress(a.X, b.X)
	case *ssa.Slice:
		b, ok := b.(*ssa.Slice)
		return ok && sameBound(a.Low, b.Low) && sameBound(a.High, b.High) && sameBound(a.Max, b.Max) && sameData(a.X, b.X)
	}
	return false
}

// sameBound reports whether two bounds of slice expressions are the same:
// both absent, the same value, or equal constants.
func sameBound(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	ca, ok := a.(*ssa.Const)
	cb, ok2 := b.(*ssa.Const)
	return ok && ok2 && ca.Value != nil && cb.Value != nil && constant.Compare(ca.Value, token.EQL, cb.Value)
}

// sameAddress reports whether a and b are the address of the same
// variable or field: the same value, or the same field of the same
// address.
func sameAddress(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	fa, ok := a.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	fb, ok := b.(*ssa.FieldAddr)
	return ok && fa.Field == fb.Field && sameAddress(fa.X, fb.X)
}
