package profiler

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"testing"
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
