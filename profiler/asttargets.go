package profiler

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// ASTTargets derives probe targets from the syntax of the analysed
// packages: every function body and function literal, every loop, both
// arms of every if, every case clause, and every statement that calls
// exactly one user or library function (or one outermost call, the
// others inside it), and every other call of a user function or a
// function value that can be timed in place (timedInPlace). IDs follow
// RegionID, with closures named as go/ssa names them (main.main$1). It
// stands in for the model's regions until the model supplies them.
func ASTTargets(prog *Program) []Target {
	var out []Target
	inline := inlineCalls(prog, callStatements(prog))
	for _, pkg := range prog.Packages {
		for i, f := range pkg.Syntax {
			file := pkg.CompiledGoFiles[i]
			w := &targetWalker{prog: prog, pkg: pkg, file: file, inline: inline}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				w.fn = []string{funcName(pkg, fd)}
				w.lits = []int{0}
				w.add(FuncBody, fd)
				w.tests(fd)
				w.stmts(fd.Body)
			}
			out = append(out, w.out...)
		}
	}
	return out
}

type targetWalker struct {
	prog *Program
	pkg  *packages.Package
	file string
	// inline are the calls that can be timed in place (inlineCalls).
	inline map[*ast.CallExpr]bool
	fn     []string // enclosing function names, innermost last
	lits   []int    // closures seen so far in each enclosing function
	out    []Target
}

func (w *targetWalker) add(kind Kind, n ast.Node) {
	pos := w.prog.Fset.Position(n.Pos())
	fn := w.fn[len(w.fn)-1]
	w.out = append(w.out, Target{ID: RegionID(fn, kind, pos), Kind: kind, Node: n, File: w.file, Func: fn})
}

// tests adds the branch tests of a function (modelTests; every if has
// both arms here).
func (w *targetWalker) tests(fn ast.Node) {
	for _, e := range modelTests(fn, func(*ast.IfStmt) bool { return true }) {
		w.add(TestTrue, e)
		w.add(TestFalse, e)
	}
}

// stmts walks a subtree, entering function literals as new functions.
func (w *targetWalker) stmts(root ast.Node) {
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			top := len(w.fn) - 1
			w.lits[top]++
			w.fn = append(w.fn, fmt.Sprintf("%s$%d", w.fn[top], w.lits[top]))
			w.lits = append(w.lits, 0)
			w.add(FuncBody, n)
			w.tests(n)
			w.stmts(n.Body)
			w.fn, w.lits = w.fn[:top+1], w.lits[:top+1]
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			w.add(Loop, n)
		case *ast.IfStmt:
			w.add(ThenArm, n)
			w.add(ElseArm, n)
		case *ast.SwitchStmt:
			if clausesCounted(n) && !hasDefault(n) {
				w.add(CaseArm, n) // no clause matched (ClauseID)
			}
		case *ast.CaseClause:
			w.add(CaseArm, n)
			w.calls(n.Body)
		case *ast.CommClause:
			w.add(CaseArm, n)
			w.calls(n.Body)
		case *ast.BlockStmt:
			w.calls(n.List)
		case *ast.CallExpr:
			if w.inline[n] && !w.library(n) {
				w.add(Call, n)
			}
		}
		return true
	})
}

// calls adds the call statements of a statement list.
func (w *targetWalker) calls(list []ast.Stmt) {
	for _, s := range list {
		if call, _ := singleCall(w.pkg.TypesInfo, s); call != nil {
			w.out = append(w.out, Target{
				ID:   RegionID(w.fn[len(w.fn)-1], Call, w.prog.Fset.Position(call.Pos())),
				Kind: Call, Node: s, File: w.file, Func: w.fn[len(w.fn)-1],
			})
		}
	}
}

// library reports whether call's static callee is a function outside the
// program's packages.
func (w *targetWalker) library(call *ast.CallExpr) bool {
	f, ok := typeutil.Callee(w.pkg.TypesInfo, call).(*types.Func)
	return ok && f.Pkg() != nil && !w.prog.owns(f)
}

// funcName is the name model.FuncName gives a declared function: pkg.F,
// pkg.(T).M or pkg.(*T).M.
func funcName(pkg *packages.Package, fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return pkg.Name + "." + fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = true, s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if ix, ok := t.(*ast.IndexListExpr); ok {
		t = ix.X
	}
	name := types.ExprString(t)
	if star {
		return fmt.Sprintf("%s.(*%s).%s", pkg.Name, name, fd.Name.Name)
	}
	return fmt.Sprintf("%s.(%s).%s", pkg.Name, name, fd.Name.Name)
}
