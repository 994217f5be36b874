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

// singleCall returns the call a simple statement's timer times (or a
// return statement's, returnResults), and its
// static callee (nil for a dynamic call): the statement's one call of a
// user or library function, or its outermost call when the others are
// inside that call (total(c, work(n)): the calls inside get timers of
// their own, timedInPlace, nested in the statement's). It returns nil when
// the statement has no such call, several outermost ones (f(a) + g(b):
// each is timed in place), an outermost MPI call, or a call that never
// returns.
func singleCall(info *types.Info, s ast.Stmt) (*ast.CallExpr, *types.Func) {
	switch s := s.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt, *ast.SendStmt:
	case *ast.ReturnStmt:
		// return f(x) of a function with several results, which no
		// expression timer can wrap (returnResults).
		if returnResults(info, s) == 0 {
			return nil, nil
		}
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); !ok || gd.Tok.String() != "var" {
			return nil, nil
		}
	default:
		return nil, nil
	}
	type found struct {
		call   *ast.CallExpr
		callee *types.Func
		mpi    bool
	}
	var calls []found
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
					calls = append(calls, found{x, nil, false})
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
				if obj.Pkg() != nil && noReturn[obj.Pkg().Path()+"."+obj.Name()] {
					bad = true
				}
				callee := obj
				if isInterfaceMethod(obj) {
					callee = nil
				}
				calls = append(calls, found{x, callee, obj.Pkg() != nil && obj.Pkg().Path() == mpiPath})
			default: // a call of a function value
				calls = append(calls, found{x, nil, false})
			}
		}
		return true
	})
	if bad || len(calls) == 0 {
		return nil, nil
	}
	// Inspect visits an outer call before the calls inside it. MPI calls
	// inside it are its MPI time (the trace's, attributeMPI); an MPI call
	// is no region of the statement's.
	outer := calls[0]
	if outer.mpi {
		return nil, nil
	}
	for _, c := range calls[1:] {
		if c.call.Pos() < outer.call.Pos() || c.call.End() > outer.call.End() {
			return nil, nil
		}
	}
	return outer.call, outer.callee
}

// returnResults is the number of results of the call that return
// statement s returns, when s is return f(x) with f of several results;
// else 0.
func returnResults(info *types.Info, s *ast.ReturnStmt) int {
	if len(s.Results) != 1 {
		return 0
	}
	call, ok := ast.Unparen(s.Results[0]).(*ast.CallExpr)
	if !ok {
		return 0
	}
	if t, ok := info.Types[call].Type.(*types.Tuple); ok && t.Len() > 1 {
		return t.Len()
	}
	return 0
}

// timedInPlace reports whether call can be timed in place, as an
// expression: a call of a function, method or function value with one
// result, not of package mpi, whose arguments make no call that never
// returns (an MPI call among them is the call's MPI time, argCalls).
// Calls in go and defer statements are the caller's to exclude. Those are
// the calls that no statement timer covers: f(g(x)), a + g(x),
// if g(x) > 0, return g(x).
func timedInPlace(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[call.Fun]
	if !ok || tv.IsType() || tv.IsBuiltin() {
		return false
	}
	if sig, ok := tv.Type.Underlying().(*types.Signature); !ok || sig.Results().Len() != 1 {
		return false
	}
	if f, ok := typeutil.Callee(info, call).(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == mpiPath {
		return false
	}
	stops, _ := argCalls(info, call)
	return !stops
}

// mpiOperation reports whether f is a function of package mpi that
// communicates: not one of the queries (mpiQueries).
func mpiOperation(f *types.Func) bool {
	return f.Pkg() != nil && f.Pkg().Path() == mpiPath && !mpiQueries[f.Name()]
}

// argCalls says what the arguments of call call, outside function
// literals: something that never returns (a panic, os.Exit, log.Fatal),
// an MPI function other than a query.
func argCalls(info *types.Info, call *ast.CallExpr) (stops, mpi bool) {
	for _, a := range call.Args {
		ast.Inspect(a, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				switch obj := typeutil.Callee(info, x).(type) {
				case *types.Builtin:
					stops = stops || obj.Name() == "panic"
				case *types.Func:
					if p := obj.Pkg(); p != nil {
						stops = stops || noReturn[p.Path()+"."+obj.Name()]
					}
					mpi = mpi || mpiOperation(obj)
				}
			}
			return true
		})
	}
	return stops, mpi
}

// goCalls are the calls of go and defer statements in root: they cannot
// be wrapped in a timer.
func goCalls(root ast.Node) map[*ast.CallExpr]bool {
	m := map[*ast.CallExpr]bool{}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			m[n.Call] = true
		case *ast.DeferStmt:
			m[n.Call] = true
		}
		return true
	})
	return m
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
