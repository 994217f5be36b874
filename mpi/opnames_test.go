package mpi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestOpNames checks that each operation code names its operation in a
// trace: the constant opX, the X-th of the iota block, is written as "X"
// (a code out of step with opNames would write a Send as a Recv).
func TestOpNames(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "trace.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var consts []string // the opcode block's names, in order: their values
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST || len(g.Specs) == 0 || g.Specs[0].(*ast.ValueSpec).Names[0].Name != "opUnknown" {
			continue
		}
		for _, spec := range g.Specs {
			for _, name := range spec.(*ast.ValueSpec).Names {
				consts = append(consts, name.Name)
			}
		}
	}
	if len(consts) != int(opCount)+1 || consts[opCount] != "opCount" {
		t.Fatalf("operation constants %v: want opUnknown, one per name in opNames, then opCount (%d in all)", consts, int(opCount)+1)
	}
	names := map[string]bool{}
	for code, name := range opNames {
		if code > 0 && consts[code] != "op"+name {
			t.Errorf("%s = %d is written as %q", consts[code], code, name)
		}
		if name == "" || names[name] {
			t.Errorf("opNames[%d] = %q: empty or repeated", code, name)
		}
		names[name] = true
	}
}
