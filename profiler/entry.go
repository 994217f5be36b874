package profiler

import (
	"errors"
	"fmt"
	"go/ast"
	"go/types"
)

// ErrNoRanks is wrapped by the error of a program that never starts MPI
// ranks: nothing of it can be profiled per rank, nor predicted.
var ErrNoRanks = errors.New("profiler: the program starts no MPI ranks")

// checkStartsRanks reports an error naming main's position when no package
// of the program refers to mpi.Main or mpi.Run: such a program runs, but
// the profile's MPI times come from the ranks' trace, which it never
// writes, and there is nothing per rank to predict.
func (p *Program) checkStartsRanks() error {
	for _, pkg := range p.Packages {
		if pkg.TypesInfo == nil {
			return nil // loaded without types (LoadFiles): nothing to tell
		}
		for _, obj := range pkg.TypesInfo.Uses {
			if f, ok := obj.(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == mpiPath && (f.Name() == "Main" || f.Name() == "Run") {
				return nil
			}
		}
	}
	where := p.Main.PkgPath
	for _, file := range p.Main.Syntax {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
				where = p.Fset.Position(fd.Pos()).String()
			}
		}
	}
	return fmt.Errorf("%w: %s: main never calls mpi.Main or mpi.Run (package %s), so it runs no ranks to time or predict; "+
		"predict models SPMD programs: put the parallel part in mpi.Main(func(c *mpi.Comm) { ... }), as the examples do",
		ErrNoRanks, where, mpiPath)
}
