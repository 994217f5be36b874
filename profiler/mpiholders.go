package profiler

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// markMPIHolders sets holdsMPI on the regions whose code calls an MPI
// operation (not a query such as Rank), directly or through the
// program's functions that do (statically called, at any depth). A
// region's numbers in a run then depend on how the ranks waited for each
// other there (a master polling its workers with Test iterates as often
// as the polls fail), not on the program alone; fillUnreached does not
// take them from another run. It reads the syntax, not a run's trace: a
// Test is not traced, and a loop counted without a timer has no MPI site
// of its own in the profile.
func (in *Instrumented) markMPIHolders(prog *Program) {
	infos := map[string]*types.Info{} // file path -> its package's types
	holds := map[*types.Func]bool{}
	calls := map[*types.Func][]*types.Func{} // user function -> user functions it calls
	for _, pkg := range prog.Packages {
		for i, f := range pkg.Syntax {
			infos[pkg.CompiledGoFiles[i]] = pkg.TypesInfo
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				fn, _ := pkg.TypesInfo.Defs[fd.Name].(*types.Func)
				if fn == nil {
					continue
				}
				direct, callees := mpiCalls(pkg.TypesInfo, fd.Body, nil)
				holds[fn] = direct
				calls[fn] = callees
			}
		}
	}
	// The program's functions that reach an MPI operation: grown until
	// no call adds one (recursion included).
	for changed := true; changed; {
		changed = false
		for fn, callees := range calls {
			if holds[fn] {
				continue
			}
			for _, c := range callees {
				if holds[c] {
					holds[fn], changed = true, true
					break
				}
			}
		}
	}
	for _, r := range in.Regions {
		if info := infos[r.File]; info != nil && r.Node != nil {
			r.holdsMPI, _ = mpiCalls(info, r.Node, holds)
		}
	}
}

// mpiCalls reports whether root calls an MPI operation or a function
// that holds marks, and lists the functions root calls statically.
func mpiCalls(info *types.Info, root ast.Node, holds map[*types.Func]bool) (mpi bool, callees []*types.Func) {
	ast.Inspect(root, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if f, ok := typeutil.Callee(info, call).(*types.Func); ok {
			// Uses names a generic function, not its instance; Origin
			// keeps it so should that change.
			f = f.Origin()
			if mpiOperation(f) || holds[f] {
				mpi = true
			}
			callees = append(callees, f)
		}
		return true
	})
	return mpi, callees
}
