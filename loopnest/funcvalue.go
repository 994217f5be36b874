package loopnest

import (
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// funcValues indexes the function values of the program's own code by
// signature, for funcValueCallees.
type funcValues struct {
	taken   []takenFunc  // functions, closures and method values whose value own code takes
	foreign []types.Type // signatures of function values that may come from outside the program
	own     map[*types.Package]bool
	seen    map[*ssa.Function]bool // values in taken
	ops     []*ssa.Value           // scan's operand buffer
}

// takenFunc is a function value: sig is the value's signature, fn the
// function that calling it runs (for a method value or a method
// expression, the declared method, whose signature lacks the receiver
// that a method expression takes first).
type takenFunc struct {
	fn  *ssa.Function
	sig *types.Signature
}

// ownType reports whether t, or what it points to, is a type of the
// program's own packages (an unnamed type counts as one).
func (fv *funcValues) ownType(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return fv.own[n.Obj().Pkg()]
	}
	return true
}

// funcValueCallees are the functions a call through a function value of
// signature sig may run: the program's functions, closures and method
// values of that signature whose value its own code takes (passes,
// stores, returns; a bound method value is its method), sorted by name.
// None, so that the call stays unknown, when a value of that signature
// may come from outside the program: a package variable or a struct
// field of another package, the result of a call of another package's
// function or of a function value, a type assertion (the interface may
// hold anything), or a parameter of a function whose value is taken
// (another package may call it). Another package's function taken as a
// value is one of the functions: the pure registry judges it.
func (a *Analyzer) funcValueCallees(prog *ssa.Program, sig *types.Signature) []*ssa.Function {
	if a.fvals == nil {
		a.fvals = a.indexFuncValues(prog)
	}
	for _, t := range a.fvals.foreign {
		if types.Identical(t, sig) {
			return nil
		}
	}
	var fns []*ssa.Function
	for _, tf := range a.fvals.taken {
		if types.Identical(tf.sig, sig) && !slices.Contains(fns, tf.fn) {
			fns = append(fns, tf.fn)
		}
	}
	return fns
}

func (a *Analyzer) indexFuncValues(prog *ssa.Program) *funcValues {
	fv := &funcValues{own: map[*types.Package]bool{}, seen: map[*ssa.Function]bool{}}
	for _, fn := range a.all {
		if fn.Pkg != nil {
			fv.own[fn.Pkg.Pkg] = true
		}
	}
	for _, fn := range a.all {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				fv.scan(prog, in, a.own)
			}
		}
	}
	sort.SliceStable(fv.taken, func(i, j int) bool { return fv.taken[i].fn.String() < fv.taken[j].fn.String() })
	return fv
}

// take records that own code takes the value of function value.
func (fv *funcValues) take(prog *ssa.Program, value *ssa.Function) {
	if fv.seen[value] {
		return
	}
	fv.seen[value] = true
	fv.taken = append(fv.taken, takenFunc{fn: DeclaredFunc(prog, value), sig: value.Signature})
	// Another package may call a function whose value is taken, with its
	// own function values as arguments.
	for _, p := range value.Params {
		if _, ok := p.Type().Underlying().(*types.Signature); ok {
			fv.foreign = append(fv.foreign, p.Type().Underlying())
		}
	}
}

// onlyCalled reports whether closure mc is only ever called where it is
// made (sum := func(v float64) float64 {...}; sum(x)): its value goes to
// no other code, so no call through a function value of its signature
// can reach it (a generic Map(xs, f) was taken to run sum's Allreduce).
func onlyCalled(mc *ssa.MakeClosure) bool {
	refs := mc.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		c, ok := r.(ssa.CallInstruction)
		if !ok || c.Common().IsInvoke() || c.Common().Value != mc {
			return false
		}
		for _, a := range c.Common().Args {
			if a == mc {
				return false
			}
		}
	}
	return true
}

// scan records the function values instruction in takes and the foreign
// ones it brings in; own tells the program's functions.
func (fv *funcValues) scan(prog *ssa.Program, in ssa.Instruction, own func(*ssa.Function) bool) {
	if mc, ok := in.(*ssa.MakeClosure); ok {
		if !onlyCalled(mc) {
			fv.take(prog, mc.Fn.(*ssa.Function))
		}
		return
	}
	var callee ssa.Value
	if c, ok := in.(ssa.CallInstruction); ok && !c.Common().IsInvoke() {
		callee = c.Common().Value
	}
	fv.ops = in.Operands(fv.ops[:0])
	for _, op := range fv.ops {
		if op == nil || *op == nil || *op == callee {
			continue
		}
		if f, ok := (*op).(*ssa.Function); ok {
			fv.take(prog, f)
		}
	}
	v, ok := in.(ssa.Value)
	if !ok {
		return
	}
	foreign := false
	switch x := in.(type) {
	case *ssa.Call:
		st := x.Common().StaticCallee()
		foreign = st == nil || !own(st)
	case *ssa.UnOp:
		if g, ok := x.X.(*ssa.Global); ok {
			foreign = g.Pkg == nil || !fv.own[g.Pkg.Pkg]
		}
	case *ssa.TypeAssert:
		foreign = true
	case *ssa.FieldAddr:
		foreign = !fv.ownType(x.X.Type())
	case *ssa.Field:
		foreign = !fv.ownType(x.X.Type())
	}
	if !foreign {
		return
	}
	// The value itself, a tuple's parts, or what a field address points to.
	t := v.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if tup, ok := t.(*types.Tuple); ok {
		for i := 0; i < tup.Len(); i++ {
			if s, ok := tup.At(i).Type().Underlying().(*types.Signature); ok {
				fv.foreign = append(fv.foreign, s)
			}
		}
		return
	}
	if s, ok := t.Underlying().(*types.Signature); ok {
		fv.foreign = append(fv.foreign, s)
	}
}

// DeclaredFunc is the function a call of fn runs: for a synthetic
// wrapper of a method (a method value x.M, a method expression T.M, a
// method promoted through a pointer), the declared method M.
func DeclaredFunc(prog *ssa.Program, fn *ssa.Function) *ssa.Function {
	if fn.Synthetic != "" {
		if obj, ok := fn.Object().(*types.Func); ok {
			if declared := prog.FuncValue(obj); declared != nil {
				return declared
			}
		}
	}
	return fn
}
