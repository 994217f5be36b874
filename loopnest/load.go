package loopnest

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Program is the loop nests of every function of some packages.
type Program struct {
	Prog  *ssa.Program
	Funcs []*Func // functions with at least one loop, in source order
}

// LoadError reports packages that do not load or type-check; each message
// carries its file:line position.
type LoadError struct{ Errors []string }

func (e *LoadError) Error() string {
	return "loopnest: loading packages:\n\t" + strings.Join(e.Errors, "\n\t")
}

// Load loads the packages matching patterns (go list syntax, resolved in
// dir; "" is the current directory), builds their SSA form and analyses
// the loops of every function in them, closures included. It finds loops
// itself; a caller that has the model's loop regions uses Analyzer.Func
// with their shapes instead.
func Load(dir string, patterns []string, pure *Registry) (*Program, error) {
	if len(patterns) == 0 {
		return nil, errors.New("loopnest: no packages given")
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
			packages.NeedTypesInfo | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Dir:   dir,
		Tests: false,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loopnest: loading packages: %w", err)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, &LoadError{errs}
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("loopnest: no packages match %s", strings.Join(patterns, " "))
	}
	prog, ssaPkgs := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics|ssa.GlobalDebug)
	prog.Build()
	return Analyze(prog, ssaPkgs, pure)
}

// Analyze analyses the loops of every function of pkgs, closures included,
// with loops found by FindLoops.
func Analyze(prog *ssa.Program, pkgs []*ssa.Package, pure *Registry) (*Program, error) {
	own := map[*ssa.Package]bool{}
	for _, p := range pkgs {
		if p != nil {
			own[p] = true
		}
	}
	isOwn := func(fn *ssa.Function) bool {
		if o := fn.Origin(); o != nil {
			fn = o
		}
		return fn.Pkg != nil && own[fn.Pkg] && len(fn.Blocks) > 0
	}
	a := NewAnalyzer(pure, isOwn)
	var fns []*ssa.Function
	for fn := range ssautil.AllFunctions(prog) {
		if fn.Pkg != nil && own[fn.Pkg] && fn.Origin() == nil && fn.TypeParams().Len() == 0 && len(fn.Blocks) > 0 {
			fns = append(fns, fn)
		}
	}
	sort.Slice(fns, func(i, j int) bool {
		if fns[i].Pos() != fns[j].Pos() {
			return fns[i].Pos() < fns[j].Pos()
		}
		return fns[i].String() < fns[j].String()
	})
	out := &Program{Prog: prog}
	for _, fn := range fns {
		f, err := a.Func(fn, nil)
		if err != nil {
			return nil, err
		}
		if len(f.Loops) > 0 {
			out.Funcs = append(out.Funcs, f)
		}
	}
	return out, nil
}
