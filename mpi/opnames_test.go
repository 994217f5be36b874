package mpi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestOpNames checks that each operation code names its operation in a
// trace: the constant opX is written as "X" (a code out of step with
// opNames would write a Send as a Recv).
func TestOpNames(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "trace.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			for _, name := range spec.(*ast.ValueSpec).Names {
				obj, ok := opByName[name.Name]
				if !ok {
					continue
				}
				seen++
				if want := name.Name[len("op"):]; obj < opCount && obj != opUnknown && opNames[obj] != want {
					t.Errorf("%s = %d is written as %q, want %q", name.Name, obj, opNames[obj], want)
				}
			}
		}
	}
	if seen != int(opCount)+1 {
		t.Errorf("found %d operation constants, want %d", seen, int(opCount)+1)
	}
	names := map[string]bool{}
	for i, n := range opNames {
		if n == "" || names[n] {
			t.Errorf("opNames[%d] = %q: empty or repeated", i, n)
		}
		names[n] = true
	}
}

// opByName maps the constants' identifiers to their values, as the
// compiler sees them.
var opByName = map[string]opcode{
	"opUnknown": opUnknown, "opSend": opSend, "opRecv": opRecv, "opSendrecv": opSendrecv, "opIsend": opIsend,
	"opIrecv": opIrecv, "opWait": opWait, "opWaitall": opWaitall, "opTest": opTest, "opBarrier": opBarrier,
	"opBcast": opBcast, "opReduce": opReduce, "opAllreduce": opAllreduce, "opGather": opGather,
	"opGatherv": opGatherv, "opScatter": opScatter, "opScatterv": opScatterv, "opAllgather": opAllgather,
	"opAlltoall": opAlltoall, "opAlltoallv": opAlltoallv, "opSplit": opSplit,
	"opBeginInterval": opBeginInterval, "opEndInterval": opEndInterval, "opCount": opCount,
}
