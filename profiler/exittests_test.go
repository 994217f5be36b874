package profiler

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestExitTests(t *testing.T) {
	for _, tc := range []struct {
		loop string
		want []string // the tests' source text; nil: none counted
	}{
		{"for i < n {}", nil},
		{"for i < n && !(x > tol) {}", []string{"i < n", "x > tol"}},
		{"for (a || b) && c() {}", []string{"a", "b", "c()"}},
		{"for i := 0; i < n; i++ { if x[i] < 0 { break } }", []string{"i < n", "x[i] < 0"}},
		{"for i := 0; i < n; i++ { if x[i] < 0 { return } }", []string{"i < n", "x[i] < 0"}},
		{"for i := 0; i < n; i++ { if x[i] < 0 { continue } }", nil},
		{"for i := 0; i < n; i++ { if x[i] < 0 { y++ } }", nil},
		{"for i := 0; i < n; i++ { switch { case x[i] < 0: break } }", nil},
		{"for _, v := range xs { if v == want && ok { return } }", []string{"v == want", "ok"}},
		{"for _, v := range xs { if v == want { break } }", []string{"v == want"}},
		{"for _, v := range xs { use(v) }", nil},
		{"for { if done { break } }", nil},
		{"for { if a { break }; if b { return } }", []string{"a", "b"}},
	} {
		src := "package p\nfunc f() {\n" + tc.loop + "\n}\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.loop, err)
		}
		loop := f.Decls[0].(*ast.FuncDecl).Body.List[0]
		var got []string
		for _, e := range ExitTests(loop) {
			got = append(got, src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: tests %q, want %q", tc.loop, got, tc.want)
		}
	}
}

// The exit tests whose outcomes follow from the iterations and from the
// tests taken again at the exit: a for loop's conjunction of tests
// without effects, left only by its condition.
func TestDerivableTests(t *testing.T) {
	for _, tc := range []struct {
		loop string
		cont []bool // nil: counted at each evaluation
	}{
		{"for i < n && !(x > tol) { i++ }", []bool{true, false}},
		{"for !(i >= n || x > tol) { i++ }", []bool{false, false}},
		{"for i < len(xs) && xs[i] >= int(tol) { i++ }", []bool{true, true}},
		{"for i < n && (x > tol || i > 2) { i++ }", nil},          // a disjunction inside
		{"for !(i < n && x > tol) { i++ }", nil},                  // a negated conjunction
		{"for i < n && f(x) { i++ }", nil},                        // a call
		{"for i < n && x > tol { if i > 3 { break }; i++ }", nil}, // leaves by a break
		{"for i < n && x > tol { i++; if i > 3 { return } }", nil},
		{"for j := 0; j < n && x > float64(j); j++ { i++ }", nil},           // j is the init's
		{"for i < n && x > tol { for { break }; i++ }", []bool{true, true}}, // an inner loop's break
	} {
		src := "package p\nfunc f(float64) bool { return true }\nfunc g(i, n int, x, tol float64, xs []int) {\n" + tc.loop + "\n}\n"
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "p.go", src, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.loop, err)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
		if _, err := (&types.Config{}).Check("p", fset, []*ast.File{file}, info); err != nil {
			t.Fatalf("%s: %v", tc.loop, err)
		}
		loop := file.Decls[1].(*ast.FuncDecl).Body.List[0]
		fi := &fileInstr{pkg: &packages.Package{TypesInfo: info}}
		cont, ok := fi.derivableTests(loop, "", ExitTests(loop))
		if ok != (tc.cont != nil) || !slices.Equal(cont, tc.cont) {
			t.Errorf("%s: derivable %v with %v, want %v", tc.loop, ok, cont, tc.cont)
		}
	}
}
