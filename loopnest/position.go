package loopnest

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"

	"golang.org/x/tools/go/ssa"
)

// nameShapes gives shapes found without a model their statement position
// and an ID in the model's format, function:loop@file:line:col. The
// statement of a loop is the innermost for or range statement that holds
// all of its instructions and is not already the statement of a loop inside
// it (an outer loop whose body is only an inner loop holds nothing else).
func nameShapes(fn *ssa.Function, shapes []Shape) {
	var stmts []ast.Node
	if syn := fn.Syntax(); syn != nil {
		ast.Inspect(syn, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FuncLit:
				return n == syn // loops of closures belong to the closures
			case *ast.ForStmt, *ast.RangeStmt:
				stmts = append(stmts, n)
			}
			return true
		})
	}
	taken := map[ast.Node]int{} // statement -> shape index
	// Inner loops first: they have fewer blocks and sort last.
	for i := len(shapes) - 1; i >= 0; i-- {
		s := &shapes[i]
		var stmt ast.Node
		for _, n := range stmts {
			if !holdsAll(n, s.Blocks) {
				continue
			}
			if j, ok := taken[n]; ok && contains(s.Blocks, shapes[j].Header) {
				continue
			}
			if stmt == nil || (n.Pos() >= stmt.Pos() && n.End() <= stmt.End()) {
				stmt = n
			}
		}
		if stmt != nil {
			taken[stmt] = i
			s.Pos = stmt.Pos()
		} else {
			s.Pos = firstPos(s.Blocks)
		}
		s.ID = loopID(fn, s.Pos)
	}
	// IDs that would repeat get #2, #3, ... in order, as the model's do.
	seen := map[string]int{}
	for i := range shapes {
		seen[shapes[i].ID]++
		if n := seen[shapes[i].ID]; n > 1 {
			shapes[i].ID = fmt.Sprintf("%s#%d", shapes[i].ID, n)
		}
	}
}

func holdsAll(n ast.Node, blocks []*ssa.BasicBlock) bool {
	for _, b := range blocks {
		for _, in := range b.Instrs {
			switch in.(type) {
			case *ssa.MakeClosure, *ssa.Phi:
				// A closure's position is its literal's; a phi's is
				// its variable's declaration.
				continue
			}
			if p := in.Pos(); p.IsValid() && (p < n.Pos() || p >= n.End()) {
				return false
			}
		}
	}
	return true
}

func firstPos(blocks []*ssa.BasicBlock) token.Pos {
	for _, b := range blocks {
		for _, in := range b.Instrs {
			if p := in.Pos(); p.IsValid() {
				return p
			}
		}
	}
	return token.NoPos
}

func contains(blocks []*ssa.BasicBlock, b *ssa.BasicBlock) bool {
	for _, x := range blocks {
		if x == b {
			return true
		}
	}
	return false
}

// funcName is the short name the model uses in IDs: package name, a dot and
// the function's name (main$1 for closures, (*T).M for methods).
func funcName(fn *ssa.Function) string {
	if fn.Pkg == nil {
		return fn.String()
	}
	return fn.Pkg.Pkg.Name() + "." + fn.RelString(fn.Pkg.Pkg)
}

// loopID is the model's ID for a loop statement: the line is relative to
// the function's first line, so IDs do not move when code above does.
func loopID(fn *ssa.Function, pos token.Pos) string {
	if !pos.IsValid() {
		return funcName(fn) + ":loop@-"
	}
	p := fn.Prog.Fset.Position(pos)
	if syn := fn.Syntax(); syn != nil {
		base := fn.Prog.Fset.Position(syn.Pos()).Line
		return fmt.Sprintf("%s:loop@%s:+%d:%d", funcName(fn), filepath.Base(p.Filename), p.Line-base, p.Column)
	}
	return fmt.Sprintf("%s:loop@%s", funcName(fn), shortPos(fn.Prog.Fset, pos))
}

// shortPos prints file:line:col with the file's base name, as IDs do.
func shortPos(fset *token.FileSet, pos token.Pos) string {
	if !pos.IsValid() {
		return "?"
	}
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}
