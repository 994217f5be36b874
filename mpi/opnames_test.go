package mpi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"testing"
)

// TestOpNames checks that every operation the package records has a
// trace code: an operation missing from opNames would be written as "?".
func TestOpNames(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, path := range paths {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "record" && sel.Sel.Name != "mark") {
				return true
			}
			arg := 1 // record(t0, op, ...)
			if sel.Sel.Name == "mark" {
				arg = 0
			}
			if len(call.Args) <= arg {
				return true
			}
			lit, ok := call.Args[arg].(*ast.BasicLit)
			if !ok {
				t.Errorf("%s: the operation is not a literal", fset.Position(call.Pos()))
				return true
			}
			op, _ := strconv.Unquote(lit.Value)
			if opCode(op) == 0 {
				t.Errorf("%s: operation %q has no code in opNames", fset.Position(call.Pos()), op)
			}
			seen++
			return true
		})
	}
	if seen < 20 {
		t.Errorf("found %d recorded operations, want every record and mark call", seen)
	}
}
