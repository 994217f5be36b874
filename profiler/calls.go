package profiler

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// noReturn lists library functions that never return: a statement calling
// them must stay last, so it gets no probe after it.
var noReturn = map[string]bool{
	"os.Exit": true, "log.Fatal": true, "log.Fatalf": true, "log.Fatalln": true,
	"log.Panic": true, "log.Panicf": true, "log.Panicln": true, "runtime.Goexit": true,
}

// mpiQueries are the functions of package mpi that only answer a question
// about the run, at once: a statement may use them as arguments of the
// call it times.
var mpiQueries = map[string]bool{"Rank": true, "Size": true, "NP": true, "Wtime": true}

// singleCall returns the one call of a user or library function in a
// simple statement, and its static callee (nil for a dynamic call), or
// nil when the statement has no such call, several, an MPI call, or a
// call that never returns.
func singleCall(info *types.Info, s ast.Stmt) (*ast.CallExpr, *types.Func) {
	switch s := s.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt, *ast.SendStmt:
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); !ok || gd.Tok.String() != "var" {
			return nil, nil
		}
	default:
		return nil, nil
	}
	var found *ast.CallExpr
	var callee *types.Func
	n := 0
	bad := false
	ast.Inspect(s, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			obj := typeutil.Callee(info, x)
			switch obj := obj.(type) {
			case nil:
				if _, isLit := ast.Unparen(x.Fun).(*ast.FuncLit); isLit {
					n++
					found, callee = x, nil
				}
				// else a conversion
			case *types.Builtin:
				if obj.Name() == "panic" {
					bad = true
				}
			case *types.Func:
				if obj.Pkg() != nil && obj.Pkg().Path() == mpiPath && mpiQueries[obj.Name()] {
					// s.accel(c.Rank(), c.Size()): arguments, not
					// communication; the statement still times its call.
					return true
				}
				if obj.Pkg() != nil && (obj.Pkg().Path() == mpiPath || noReturn[obj.Pkg().Path()+"."+obj.Name()]) {
					bad = true
				}
				n++
				found, callee = x, obj
				if isInterfaceMethod(obj) {
					callee = nil
				}
			default: // a call of a function value
				n++
				found, callee = x, nil
			}
		}
		return true
	})
	if bad || n != 1 {
		return nil, nil
	}
	return found, callee
}

// isInterfaceMethod reports whether f is an abstract interface method,
// whose call is dynamic.
func isInterfaceMethod(f *types.Func) bool {
	sig, ok := f.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	return types.IsInterface(sig.Recv().Type())
}

// calleeName is the qualified name of a library callee, e.g. "math.Sqrt"
// or "(*strings.Builder).WriteString".
func calleeName(f *types.Func) string {
	if f == nil {
		return "(dynamic)"
	}
	return f.FullName()
}
