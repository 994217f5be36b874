package profiler

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// A statement whose one call takes Rank() and Size() as arguments times
// that call; one that communicates, or makes two calls, times none.
func TestSingleCallWithMPIQueries(t *testing.T) {
	const mpiSrc = `package mpi

type Comm struct{}

func (c *Comm) Rank() int { return 0 }
func (c *Comm) Size() int { return 1 }
func (c *Comm) Barrier()  {}
`
	const src = `package p

import "github.com/parpredict/parpredict/mpi"

func work(a, b int) int { return a + b }

func f(c *mpi.Comm) {
	work(c.Rank(), c.Size())
	x := work(c.Rank(), 1) + work(2, 3)
	c.Barrier()
	_ = x
}
`
	fset := token.NewFileSet()
	check := func(path, src string, imp types.Importer, info *types.Info) (*types.Package, *ast.File) {
		t.Helper()
		file, err := parser.ParseFile(fset, path+".go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := (&types.Config{Importer: imp}).Check(path, fset, []*ast.File{file}, info)
		if err != nil {
			t.Fatal(err)
		}
		return pkg, file
	}
	mpiPkg, _ := check(mpiPath, mpiSrc, nil, nil)
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	_, file := check("p", src, importerFunc(func(string) (*types.Package, error) { return mpiPkg, nil }), info)
	var body []ast.Stmt
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "f" {
			body = fd.Body.List
		}
	}
	want := []string{"work", "", ""}
	for i, s := range body[:3] {
		_, callee := singleCall(info, s)
		got := ""
		if callee != nil {
			got = callee.Name()
		}
		if got != want[i] {
			t.Errorf("statement %d: callee %q, want %q", i, got, want[i])
		}
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
