package profiler

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"testing"
)

// TestBranchTests lists the branch tests of a function and those that
// need counters of their own: the leaves of compound conditions, the
// conditions of ifs without an if region, tagless switch cases (not a
// tagged switch's, not a && case, not a loop's exit tests, not a
// function literal's).
func TestBranchTests(t *testing.T) {
	const src = `package p
func f(a, b bool, x, n int) {
	if a && !b { x++ }
	if x > 3 { x-- }
	if armed { x-- }
	switch { case x < 2: x++; case a || b: x--; case (b): }
	switch x { case 1: }
	for i := 0; i < n && a; i++ { if x > 9 { break } }
	ok := x > 1 && (n < 2 || a) && b
	y := !(a || x == 4)
	h(x == 5 && b, y)
	if a && f2(x == 6 || b) { x++ }
	g := func() { if b { x++ }; _ = a && b }
	g()
}`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	fn := file.Decls[0].(*ast.FuncDecl)
	texts := func(es []ast.Expr) []string {
		var out []string
		for _, e := range es {
			out = append(out, src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset])
		}
		return out
	}
	if got, want := texts(BranchTests(fn)), []string{"a", "b", "x > 3", "armed", "x < 2", "b", "x > 9",
		"x > 1", "n < 2", "a", "a", "x == 5", "a", "f2(x == 6 || b)", "x == 6"}; !slices.Equal(got, want) {
		t.Errorf("BranchTests: %q, want %q", got, want)
	}
	armed := func(n *ast.IfStmt) bool { id, ok := n.Cond.(*ast.Ident); return ok && id.Name == "armed" }
	if got, want := texts(modelTests(fn, armed)), []string{"a", "b", "x > 3", "x < 2", "b",
		"x > 1", "n < 2", "a", "a", "x == 5", "a", "f2(x == 6 || b)", "x == 6"}; !slices.Equal(got, want) {
		t.Errorf("modelTests: %q, want %q", got, want)
	}
}
