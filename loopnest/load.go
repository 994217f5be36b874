package loopnest

import (
	"fmt"
	"slices"
	"sort"

	"github.com/parpredict/parpredict/model"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Program is the loop nests of every function of some packages.
type Program struct {
	Prog  *ssa.Program
	Model *model.Program // nil when the loops were found without a model
	Funcs []*Func        // functions with at least one loop, in source order

	// wrappers are the functions without loops that call program
	// functions on every call: what a nest calling them counts of those.
	wrappers []*Func
	a        *Analyzer
}

// PureWithout reports whether loop l, its blocks in skip left out,
// makes no MPI call, calls only pure functions and has no other effect
// (what the reduction plan asks of a nest besides its trip count and
// results): a check loop whose only impure code is an arm that reports a
// mismatch and ends the program.
func (p *Program) PureWithout(l *Loop, skip map[*ssa.BasicBlock]bool) bool {
	if p.a == nil {
		return false
	}
	s := &summary{}
	for _, b := range slices.Concat(l.Blocks, l.Arms) {
		if !skip[b] {
			s.add(p.a.blockSummary(b), "")
		}
	}
	if len(s.mpi) > 0 || len(s.effects) > 0 {
		return false
	}
	for _, c := range s.calls {
		if !c.Pure {
			return false
		}
	}
	return true
}

// StoresNothing reports whether calling fn, a function of the program,
// writes no memory at all (a method like (*block).at that only computes
// an index), so that its pointer arguments are not written either.
func (p *Program) StoresNothing(fn *ssa.Function) bool {
	return p.a != nil && p.a.own(fn) && p.a.neverStores(fn, 0)
}

// DynamicCallees are the functions a call through an interface or a
// function value may run, as the loop analysis resolves it (invokeCallees,
// funcValueCallees), sorted by name; nil when it cannot tell. Not safe
// for use at once with another of the program's analyses.
func (p *Program) DynamicCallees(common *ssa.CallCommon) []*ssa.Function {
	if p.a == nil || common.StaticCallee() != nil {
		return nil
	}
	if common.IsInvoke() {
		return p.a.invokeCallees(p.Prog, common)
	}
	return p.a.funcValueCallees(p.Prog, common.Signature())
}

// Load loads the packages matching patterns with the model (model.Load)
// and analyses the loops of every function in them, closures included,
// on the model's loop regions.
func Load(cfg model.Config, patterns []string, pure *Registry) (*Program, error) {
	mp, err := model.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loopnest: %w", err)
	}
	return FromModel(mp, pure)
}

// FromModel analyses the loop regions of every function of a model.
func FromModel(mp *model.Program, pure *Registry) (*Program, error) {
	a := NewAnalyzer(pure, ownFuncs(mp.Packages))
	fns := make([]*ssa.Function, len(mp.Funcs))
	for i, f := range mp.Funcs {
		fns[i] = f.SSA
	}
	a.SetProgram(fns)
	out := &Program{Prog: mp.SSA, Model: mp, a: a}
	for _, mf := range mp.Funcs {
		f, err := a.Func(mf.SSA, ModelLoops(mf))
		if err != nil {
			return nil, err
		}
		f.Model = mf
		if len(f.Loops) > 0 {
			out.Funcs = append(out.Funcs, f)
		} else if len(f.calls) > 0 {
			out.wrappers = append(out.wrappers, f)
		}
	}
	out.sortFuncs()
	a.inlineCallees(out)
	return out, nil
}

// sortFuncs orders functions by file name and position in the file: the
// order of files in the FileSet depends on the order packages were parsed
// in, which is not fixed.
func (p *Program) sortFuncs() {
	fset := p.Prog.Fset
	sort.SliceStable(p.Funcs, func(i, j int) bool {
		a, b := fset.Position(p.Funcs[i].Fn.Pos()), fset.Position(p.Funcs[j].Fn.Pos())
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		return p.Funcs[i].Fn.String() < p.Funcs[j].Fn.String()
	})
}

// Analyze analyses the loops of every function of pkgs, closures included,
// with loops found by FindLoops: the way to use the package on SSA built
// without the model.
func Analyze(prog *ssa.Program, pkgs []*ssa.Package, pure *Registry) (*Program, error) {
	isOwn := ownFuncs(pkgs)
	a := NewAnalyzer(pure, isOwn)
	var fns []*ssa.Function
	for fn := range ssautil.AllFunctions(prog) {
		if isOwn(fn) && fn.Origin() == nil && fn.TypeParams().Len() == 0 {
			fns = append(fns, fn)
		}
	}
	sort.Slice(fns, func(i, j int) bool {
		if fns[i].Pos() != fns[j].Pos() {
			return fns[i].Pos() < fns[j].Pos()
		}
		return fns[i].String() < fns[j].String()
	})
	a.SetProgram(fns)
	out := &Program{Prog: prog, a: a}
	for _, fn := range fns {
		f, err := a.Func(fn, nil)
		if err != nil {
			return nil, err
		}
		if len(f.Loops) > 0 {
			out.Funcs = append(out.Funcs, f)
		} else if len(f.calls) > 0 {
			out.wrappers = append(out.wrappers, f)
		}
	}
	out.sortFuncs()
	a.inlineCallees(out)
	return out, nil
}

// ownFuncs returns the predicate for functions of pkgs with a body, generic
// instances included, whose calls the analysis looks into.
func ownFuncs(pkgs []*ssa.Package) func(*ssa.Function) bool {
	own := map[*ssa.Package]bool{}
	for _, p := range pkgs {
		if p != nil {
			own[p] = true
		}
	}
	return func(fn *ssa.Function) bool {
		o := fn
		if fn.Origin() != nil {
			o = fn.Origin()
		}
		return o.Pkg != nil && own[o.Pkg] && len(fn.Blocks) > 0
	}
}
