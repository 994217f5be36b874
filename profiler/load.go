package profiler

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"github.com/parpredict/parpredict/model"
	"golang.org/x/tools/go/packages"
)

// Import paths of the runtime packages: calls into mpi are MPI calls (the
// runtime times them), and neither is ever instrumented.
const (
	mpiPath   = "github.com/parpredict/parpredict/mpi"
	probePath = "github.com/parpredict/parpredict/profiler/probe"
)

// Program is a loaded program: its main package and the packages of its
// own module that it imports (the analysed packages, instrumented and
// hashed); everything else is a library.
type Program struct {
	Fset     *token.FileSet
	Main     *packages.Package
	Packages []*packages.Package // analysed packages, Main first, then by path
	Dir      string              // directory of the main package
}

// fileModes are what LoadFiles loads of each package: enough to tell the
// analysed packages and their files.
const fileModes = packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule

// LoadProgram loads the main package pattern (a directory or import path)
// relative to dir, with syntax and types for the analysed packages.
func LoadProgram(dir, pattern string) (*Program, error) {
	return loadProgram(dir, pattern, fileModes|packages.NeedCompiledGoFiles|packages.NeedSyntax|packages.NeedTypes|packages.NeedTypesInfo)
}

// LoadFiles is LoadProgram without syntax and types: the analysed
// packages and their files, all a profile's staleness check needs, in a
// fraction of the time (the package list alone; LoadProgram type-checks
// every dependency from source, about a second for an example).
func LoadFiles(dir, pattern string) (*Program, error) {
	return loadProgram(dir, pattern, fileModes)
}

func loadProgram(dir, pattern string, mode packages.LoadMode) (*Program, error) {
	dir, pattern, err := model.PackageDir(dir, pattern)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{
		Mode:  mode,
		Dir:   dir,
		Fset:  token.NewFileSet(),
		Tests: false,
	}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		return nil, fmt.Errorf("profiler: loading %s: %w", pattern, err)
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("profiler: %s names %d packages, want one main package", pattern, len(pkgs))
	}
	main := pkgs[0]
	var errs []string
	badPath := false // an error is about the pattern itself
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			text, aboutPath := model.ErrorText(e)
			errs, badPath = append(errs, text), badPath || aboutPath
		}
	})
	switch {
	case len(errs) > 0 && badPath:
		return nil, fmt.Errorf("profiler: %s names no package here: %s; %s", pattern, strings.Join(errs, "; "), model.PathAdvice)
	case len(errs) > 0:
		return nil, fmt.Errorf("profiler: %s does not build: %s", pattern, strings.Join(errs, "; "))
	}
	if main.Name != "main" {
		return nil, fmt.Errorf("profiler: %s is package %s, not a main package", main.PkgPath, main.Name)
	}
	if len(main.GoFiles) == 0 {
		return nil, fmt.Errorf("profiler: %s has no Go files", pattern)
	}
	prog := &Program{Fset: cfg.Fset, Main: main, Dir: filepath.Dir(main.GoFiles[0])}
	runtime := runtimePackages(pkgs)
	var own []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p != main && !runtime[p] && isOwn(main, p) {
			own = append(own, p)
		}
	})
	sort.Slice(own, func(i, j int) bool { return own[i].PkgPath < own[j].PkgPath })
	prog.Packages = append([]*packages.Package{main}, own...)
	return prog, nil
}

// owns reports whether f is a function of the program's analysed
// packages.
func (p *Program) owns(f *types.Func) bool {
	if f.Pkg() == nil {
		return false
	}
	for _, q := range p.Packages {
		if q.Types == f.Pkg() || q.PkgPath == f.Pkg().Path() {
			return true
		}
	}
	return false
}

// runtimePackages are the mpi package and everything it imports: when the
// program lives in parpredict's own module (the examples), those share its
// module but are the runtime, and probes in them would import the runtime
// back (probe imports mpi).
func runtimePackages(pkgs []*packages.Package) map[*packages.Package]bool {
	rt := map[*packages.Package]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.PkgPath == mpiPath && !rt[p] {
			packages.Visit([]*packages.Package{p}, nil, func(d *packages.Package) { rt[d] = true })
		}
	})
	return rt
}

// isOwn reports whether p belongs to the program: same module as main, and
// not one of the profiler's packages (examples live in parpredict's own
// module; the mpi runtime is left out by runtimePackages).
func isOwn(main, p *packages.Package) bool {
	if main.Module == nil || p.Module == nil || p.Module.Path != main.Module.Path {
		return false
	}
	return !strings.HasPrefix(p.PkgPath, "github.com/parpredict/parpredict/profiler")
}
