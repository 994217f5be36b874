package profiler

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// dynamicTarget is what a dynamic call calls, where the program's syntax
// tells (see region.target): for a call through an interface of the
// program, the one method of the program's types that implements it; for
// a call of a variable, the function literal it was defined with, when
// nothing else is ever assigned to it and its address is not taken; for a
// literal called where it is written, that literal. The profiler needs
// it to know a call site's work: the iterations of its callee's loops.
func (fi *fileInstr) dynamicTarget(call *ast.CallExpr) any {
	info := fi.pkg.TypesInfo
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		return lit
	}
	switch obj := typeutil.Callee(info, call).(type) {
	case *types.Func:
		// Only an interface of the program: a library's (fmt.Stringer)
		// has implementations the program does not show.
		if isInterfaceMethod(obj) && fi.isOwn(obj) {
			if f := fi.onlyImplementation(obj); f != nil {
				return f
			}
		}
	case *types.Var:
		if lit := fi.boundLiteral(obj); lit != nil {
			return lit
		}
	}
	return nil
}

// onlyImplementation is the one method of the program's named types that
// a call of interface method m can reach, or nil.
func (fi *fileInstr) onlyImplementation(m *types.Func) *types.Func {
	if f, done := fi.in.implementations[m]; done {
		return f
	}
	f := fi.findImplementation(m)
	fi.in.implementations[m] = f
	return f
}

// findImplementation is onlyImplementation without the cache: it looks
// through every named type of the program.
func (fi *fileInstr) findImplementation(m *types.Func) *types.Func {
	iface, ok := m.Type().(*types.Signature).Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var found *types.Func
	for _, p := range fi.prog.Packages {
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || types.IsInterface(tn.Type()) {
				continue
			}
			for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
				if !types.Implements(t, iface) {
					continue
				}
				obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
				f, ok := obj.(*types.Func)
				if !ok {
					continue
				}
				if found != nil && found != f {
					return nil
				}
				found = f
				break // T's methods are *T's too
			}
		}
	}
	return found
}

// boundLiteral is the function literal variable v is defined with (v :=
// func...{...} or var v = func...{...}) when the file never assigns v
// again nor takes its address; else nil.
func (fi *fileInstr) boundLiteral(v *types.Var) *ast.FuncLit {
	info := fi.pkg.TypesInfo
	var lit *ast.FuncLit
	other := false
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && (info.Defs[id] == v || info.Uses[id] == v)
	}
	ast.Inspect(fi.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if !is(l) {
					continue
				}
				if f, ok := n.Rhs[min(i, len(n.Rhs)-1)].(*ast.FuncLit); ok && n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) && lit == nil {
					lit = f
				} else {
					other = true
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] == v && i < len(n.Values) {
					if f, ok := n.Values[i].(*ast.FuncLit); ok && len(n.Names) == len(n.Values) {
						lit = f
					} else {
						other = true
					}
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && is(n.X) {
				other = true
			}
		}
		return !other
	})
	if other {
		return nil
	}
	return lit
}
