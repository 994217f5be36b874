package model

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Config says how to load packages.
type Config struct {
	Dir        string   // directory to resolve patterns in; "" for the current one
	Env        []string // environment for the go command; nil for the process's
	BuildFlags []string // extra flags for the go command, e.g. "-tags=openmpi"
	Tests      bool     // include test packages
}

// Program is the model of a set of packages.
type Program struct {
	Fset     *token.FileSet
	SSA      *ssa.Program
	Packages []*ssa.Package // the analysed packages, as named on the command line
	Funcs    []*Func        // every analysed function with a body, in source order

	byName map[string]*Func
}

// Func returns the function with the given name (as in Func.Name), or nil.
func (p *Program) Func(name string) *Func { return p.byName[name] }

// LoadError reports packages that failed to load or type-check; each entry
// of Errors carries its position.
type LoadError struct{ Errors []packages.Error }

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString("model: loading packages:")
	for i, err := range e.Errors {
		if i == 10 {
			fmt.Fprintf(&b, "\n\t(and %d more)", len(e.Errors)-10)
			break
		}
		b.WriteString("\n\t")
		b.WriteString(err.Error())
	}
	return b.String()
}

// loadMode is what building SSA of the named packages needs; dependencies
// come from export data, without syntax, so only named packages have bodies.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedTypesSizes |
	packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

// LoadPackages loads the packages matching patterns (as go build takes them)
// with their syntax and types. Errors from the go command, the parser or the
// type checker come back as a *LoadError.
func LoadPackages(cfg Config, patterns ...string) ([]*packages.Package, error) {
	pcfg := &packages.Config{Mode: loadMode, Dir: cfg.Dir, Env: cfg.Env, BuildFlags: cfg.BuildFlags, Tests: cfg.Tests}
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("model: loading packages: %w", err)
	}
	var errs []packages.Error
	packages.Visit(pkgs, nil, func(p *packages.Package) { errs = append(errs, p.Errors...) })
	if len(errs) > 0 {
		return nil, &LoadError{Errors: errs}
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("model: no packages match %s", strings.Join(patterns, " "))
	}
	return pkgs, nil
}

// BuildSSA builds SSA for the loaded packages, instantiating generics and
// treating os.Exit, log.Fatal*, runtime.Goexit and mpi's Abort as calls
// that do not return.
func BuildSSA(pkgs []*packages.Package) (*ssa.Program, []*ssa.Package) {
	prog, spkgs := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	prog.SetNoReturn(noReturn)
	prog.Build()
	return prog, spkgs
}

func noReturn(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	name := fn.Name()
	switch fn.Pkg().Path() {
	case "os", "syscall":
		return name == "Exit"
	case "runtime":
		return name == "Goexit"
	case "log":
		return strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic")
	case MPIPath:
		return name == "Abort"
	}
	return false
}

// Load loads the packages matching patterns, builds their SSA and the
// control trees of all their functions.
func Load(cfg Config, patterns ...string) (*Program, error) {
	pkgs, err := LoadPackages(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	prog, spkgs := BuildSSA(pkgs)
	return Build(prog, pkgs, spkgs)
}

// Build makes the control trees of every function of spkgs (the SSA of
// pkgs) that has a body, closures and generic instances included.
func Build(prog *ssa.Program, pkgs []*packages.Package, spkgs []*ssa.Package) (*Program, error) {
	c := &classifier{
		user:  map[*ssa.Package]bool{},
		files: map[*token.File]*ast.File{},
		fset:  prog.Fset,
		sizes: types.SizesFor("gc", runtime.GOARCH),
		calls: map[*ast.File]map[token.Pos]*ast.CallExpr{},
	}
	p := &Program{Fset: prog.Fset, SSA: prog, byName: map[string]*Func{}}
	for i, sp := range spkgs {
		if sp == nil {
			continue
		}
		c.user[sp] = true
		p.Packages = append(p.Packages, sp)
		for _, f := range pkgs[i].Syntax {
			c.files[prog.Fset.File(f.FileStart)] = f
		}
		if pkgs[i].TypesSizes != nil {
			c.sizes = pkgs[i].TypesSizes
		}
	}
	var fns []*ssa.Function
	for fn := range ssautil.AllFunctions(prog) {
		if len(fn.Blocks) > 0 && c.user[pkgOf(fn)] && fn.Synthetic == "" || isInstance(fn, c) {
			fns = append(fns, fn)
		}
	}
	slices.SortFunc(fns, func(a, b *ssa.Function) int {
		if a.Pos() != b.Pos() {
			return int(a.Pos() - b.Pos())
		}
		return strings.Compare(a.String(), b.String())
	})
	var errs []error
	for _, fn := range fns {
		f, err := buildFunc(fn, funcName(fn), c)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p.Funcs = append(p.Funcs, f)
		p.byName[f.Name] = f
	}
	return p, errors.Join(errs...)
}

// isInstance reports whether fn is a built instance of a generic function
// of the analysed packages (instances are marked synthetic).
func isInstance(fn *ssa.Function, c *classifier) bool {
	return len(fn.Blocks) > 0 && fn.Origin() != nil && c.user[pkgOf(fn)]
}

// funcName is the function's name in IDs: package name, dot, the name
// relative to its package.
func funcName(fn *ssa.Function) string {
	pkg := pkgOf(fn)
	if pkg == nil {
		return fn.String()
	}
	return pkg.Pkg.Name() + "." + fn.RelString(pkg.Pkg)
}
