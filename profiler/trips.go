package profiler

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// tripExpr returns Go source for a loop's trip count evaluated before the
// loop, or "" when the loop must count its iterations one by one. Counting
// costs an increment per iteration, which a tight innermost loop notices;
// a loop whose trip count is fixed at entry does not need it. That holds
// for "for i := A; i < B; i++" (or <=, or i += 1) and for ranging over an
// integer, a slice or an array, when the body cannot leave early (no
// break, return, goto or labelled continue out of it), does not assign i
// or anything B reads, and A, B and the ranged value have no calls other
// than len and cap.
func tripExpr(info *types.Info, loop ast.Stmt, body *ast.BlockStmt, lbl string, src func(ast.Node) string) string {
	if leavesEarly(body, lbl) {
		return ""
	}
	switch l := loop.(type) {
	case *ast.RangeStmt:
		if !pure(l.X) {
			return ""
		}
		switch t := info.TypeOf(l.X).Underlying().(type) {
		case *types.Basic:
			if isInt(t) {
				return fmt.Sprintf("int64(max(0, %s))", src(l.X))
			}
		case *types.Slice, *types.Array:
			return fmt.Sprintf("int64(len(%s))", src(l.X))
		case *types.Pointer:
			if _, ok := t.Elem().Underlying().(*types.Array); ok {
				return fmt.Sprintf("int64(len(%s))", src(l.X))
			}
		}
	case *ast.ForStmt:
		obj, start, ok := inductionVar(info, l)
		if !ok || !pure(start) || !isInt(obj.Type()) {
			return ""
		}
		cond, ok := l.Cond.(*ast.BinaryExpr)
		if !ok || (cond.Op != token.LSS && cond.Op != token.LEQ) || !isIdent(info, cond.X, obj) || !pure(cond.Y) || mentions(info, cond.Y, obj) {
			return ""
		}
		written := assigned(info, body)
		if written[obj] {
			return ""
		}
		for _, o := range uses(info, cond.Y) {
			if written[o] {
				return ""
			}
		}
		extra := ""
		if cond.Op == token.LEQ {
			extra = " + 1"
		}
		return fmt.Sprintf("int64(max(0, (%s) - (%s)%s))", src(cond.Y), src(start), extra)
	}
	return ""
}

// leavesEarly reports whether a loop body can leave the loop other than by
// its condition: break out of it, return, goto, or a labelled branch to an
// enclosing statement.
func leavesEarly(body *ast.BlockStmt, lbl string) bool {
	if breaksOut(body, lbl) {
		return true
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		case *ast.BranchStmt:
			if n.Tok == token.GOTO || (n.Label != nil && n.Label.Name != lbl && !labelledInside(body, n.Label.Name)) {
				found = true
			}
		}
		return !found
	})
	return found
}

func labelledInside(body *ast.BlockStmt, name string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if l, ok := n.(*ast.LabeledStmt); ok && l.Label.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// pure reports whether e can be evaluated once more without effects:
// identifiers, constants, selectors, index expressions, arithmetic, len
// and cap.
func pure(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			id, isID := n.Fun.(*ast.Ident)
			if !isID || (id.Name != "len" && id.Name != "cap") {
				ok = false
			}
		case *ast.FuncLit, *ast.UnaryExpr:
			if u, isU := n.(*ast.UnaryExpr); isU && (u.Op == token.SUB || u.Op == token.ADD) {
				return true
			}
			ok = false
		case *ast.StarExpr:
			ok = false
		}
		return ok
	})
	return ok
}

// isInt reports whether t is a signed integer type (an unsigned B - A
// could wrap below zero).
func isInt(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && b.Info()&types.IsUnsigned == 0
}

func isIdent(info *types.Info, e ast.Expr, obj types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == obj
}

func mentions(info *types.Info, e ast.Expr, obj types.Object) bool {
	for _, o := range uses(info, e) {
		if o == obj {
			return true
		}
	}
	return false
}

func uses(info *types.Info, e ast.Expr) []types.Object {
	var out []types.Object
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if o := info.Uses[id]; o != nil {
				if _, isVar := o.(*types.Var); isVar {
					out = append(out, o)
				}
			}
		}
		return true
	})
	return out
}

// inductionVar is the variable j of a loop `for j := start; ...; j++`
// (or j += 1) and its start; ok is false for any other for loop.
func inductionVar(info *types.Info, f *ast.ForStmt) (j types.Object, start ast.Expr, ok bool) {
	init, ok := f.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return nil, nil, false
	}
	iv, ok := init.Lhs[0].(*ast.Ident)
	if !ok || info.Defs[iv] == nil || !unitStep(info, f.Post, info.Defs[iv]) {
		return nil, nil, false
	}
	return info.Defs[iv], init.Rhs[0], true
}

// unitStep reports whether post is "i++" or "i += 1".
func unitStep(info *types.Info, post ast.Stmt, obj types.Object) bool {
	switch p := post.(type) {
	case *ast.IncDecStmt:
		return p.Tok == token.INC && isIdent(info, p.X, obj)
	case *ast.AssignStmt:
		if p.Tok != token.ADD_ASSIGN || len(p.Lhs) != 1 || !isIdent(info, p.Lhs[0], obj) {
			return false
		}
		lit, ok := p.Rhs[0].(*ast.BasicLit)
		return ok && lit.Value == "1"
	}
	return false
}

// assigned returns the variables a body assigns, increments or takes the
// address of.
func assigned(info *types.Info, body ast.Node) map[types.Object]bool {
	w := map[types.Object]bool{}
	mark := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if o := info.Uses[id]; o != nil {
				w[o] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				mark(l)
			}
		case *ast.IncDecStmt:
			mark(n.X)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				mark(n.X)
			}
		case *ast.RangeStmt:
			if n.Key != nil {
				mark(n.Key)
			}
			if n.Value != nil {
				mark(n.Value)
			}
		}
		return true
	})
	return w
}
