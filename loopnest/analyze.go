package loopnest

import (
	"fmt"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// Analyzer computes loop nests. One Analyzer serves a whole program: it
// remembers the summaries of the program's functions.
type Analyzer struct {
	pure   *Registry
	own    func(*ssa.Function) bool
	funcs  map[*ssa.Function]*summary
	blocks map[*ssa.BasicBlock]*summary
	names  map[*ssa.Function]string

	// all are the functions whose calls and closures dependsOnRankSize
	// follows back to their arguments; see SetProgram.
	all    []*ssa.Function
	calls  map[*ssa.Function][]*ssa.CallCommon
	makes  map[*ssa.Function][]*ssa.MakeClosure
	values map[*ssa.Function]bool

	stored map[*ssa.Function]*storeSet // see stores

	// The program's runtime types and the methods of interface calls
	// resolved against them (invokeCallees); its function values
	// (funcValueCallees). An analyzer serves one program.
	runtimeTypes []types.Type
	invokes      map[invokeKey][]*ssa.Function
	fvals        *funcValues
}

// SetProgram gives the analyzer the program's own functions, so that a
// trip count over a parameter is found to depend on Rank() or Size() when
// a caller passes such a value.
func (a *Analyzer) SetProgram(fns []*ssa.Function) {
	a.all = fns
	a.calls, a.makes, a.fvals = nil, nil, nil
}

// NewAnalyzer returns an analyzer that treats calls of the registry's
// functions as pure and looks into calls of functions for which own returns
// true (the program's own packages). A nil registry means DefaultPure.
func NewAnalyzer(pure *Registry, own func(*ssa.Function) bool) *Analyzer {
	if pure == nil {
		pure = NewRegistry(DefaultPure...)
	}
	if own == nil {
		own = func(*ssa.Function) bool { return false }
	}
	return &Analyzer{pure: pure, own: own, funcs: map[*ssa.Function]*summary{},
		blocks: map[*ssa.BasicBlock]*summary{}, names: map[*ssa.Function]string{},
		stored: map[*ssa.Function]*storeSet{}}
}

// funcAnalysis is the state of analysing one function.
type funcAnalysis struct {
	a      *Analyzer
	fn     *ssa.Function
	ivs    map[*ssa.Phi]*IV
	ivInit map[*IV]ssa.Value
	ivStep map[*IV]ssa.Value
	inv    map[*Loop]map[ssa.Value]bool
	names  map[posIdx]string // see assigned
	loops  []*Loop           // all loops of the function
	// caller is set for the analysis of a function a loop's result is
	// passed to (steerInto): its returns go on in the caller.
	caller *steerCaller
}

func (fa *funcAnalysis) pos(b *ssa.BasicBlock) string {
	for i := len(b.Instrs) - 1; i >= 0; i-- {
		if p := b.Instrs[i].Pos(); p.IsValid() {
			return shortPos(fa.fn.Prog.Fset, p)
		}
	}
	return fmt.Sprintf("block %d", b.Index)
}

// Func analyses the loops of fn. The shapes come from the model's loop
// regions, or from FindLoops; nil means FindLoops(fn). Shapes must be
// natural loops of fn: each header dominates its blocks and nested loops'
// block sets nest.
func (a *Analyzer) Func(fn *ssa.Function, shapes []Shape) (f *Func, err error) {
	defer func() {
		// Invariant failures name the phase and the function.
		if r := recover(); r != nil {
			err = fmt.Errorf("loopnest: panic while analysing loops of %s: %v", fn, r)
		}
	}()
	if shapes == nil {
		shapes = FindLoops(fn)
	}
	loops, err := buildTree(fn, shapes)
	if err != nil {
		return nil, err
	}
	f = &Func{Fn: fn}
	fa := &funcAnalysis{a: a, fn: fn, ivs: map[*ssa.Phi]*IV{}, ivInit: map[*IV]ssa.Value{}, ivStep: map[*IV]ssa.Value{}, inv: map[*Loop]map[ssa.Value]bool{}}
	// Parents before children: an inner loop's bound may be an outer
	// loop's induction variable.
	for _, l := range loops {
		if l.Parent == nil {
			f.Roots = append(f.Roots, l)
		}
	}
	for _, r := range f.Roots {
		r.Walk(func(l *Loop) {
			f.Loops = append(f.Loops, l)
		})
	}
	fa.loops = f.Loops
	for _, l := range f.Loops {
		l.IVs = fa.findIVs(l)
	}
	// With every loop's induction variables known, an exit of an outer
	// loop that tests an inner loop's counter is not data-dependent.
	// Summaries first: a count that reads memory needs to know which
	// enclosing loops may be in a nest (memPath).
	for _, l := range f.Loops {
		a.loopSummary(l)
	}
	for _, l := range f.Loops {
		fa.tripCount(l)
		l.Rotation = rotation(l)
		fa.findIndex(l)
		fa.findCalls(l)
		fa.findGuards(l)
	}
	fa.findBodyCalls(f)
	a.plan(fa, f)
	return f, nil
}

// buildTree makes Loops of shapes and links them by containment.
func buildTree(fn *ssa.Function, shapes []Shape) ([]*Loop, error) {
	loops := make([]*Loop, len(shapes))
	for i, s := range shapes {
		if s.Header == nil || !contains(s.Blocks, s.Header) {
			return nil, fmt.Errorf("loopnest: %s: loop %s does not contain its header", fn, s.ID)
		}
		body, arms := naturalBody(s)
		loops[i] = &Loop{ID: s.ID, Pos: s.Pos, Func: fn, Header: s.Header, Blocks: body, Arms: arms, Region: s.Region}
	}
	// Sort by size, largest first, so a loop's parent comes before it.
	sort.SliceStable(loops, func(i, j int) bool { return len(loops[i].Blocks) > len(loops[j].Blocks) })
	for i, l := range loops {
		for j := i - 1; j >= 0; j-- {
			p := loops[j]
			if p.Contains(l.Header) && len(p.Blocks) > len(l.Blocks) {
				if !subset(l.Blocks, p) {
					return nil, fmt.Errorf("loopnest: %s: loops %s and %s overlap without nesting", fn, l.ID, p.ID)
				}
				// The smallest enclosing loop comes last among the larger ones.
				if l.Parent == nil || len(p.Blocks) < len(l.Parent.Blocks) {
					l.Parent = p
				}
			}
		}
	}
	for _, l := range loops {
		for p := l.Parent; p != nil; p = p.Parent {
			l.Depth++
		}
		l.Depth++
		if l.Parent != nil {
			l.Parent.Inner = append(l.Parent.Inner, l)
		}
	}
	bySource := func(ls []*Loop) {
		sort.SliceStable(ls, func(i, j int) bool { return less(ls[i], ls[j]) })
	}
	for _, l := range loops {
		bySource(l.Inner)
	}
	bySource(loops)
	return loops, nil
}

// naturalBody splits a shape's blocks into the natural loop (the blocks
// that reach the header again) and the rest: the model's loop regions may
// hold arms that leave the loop, such as a return inside it.
func naturalBody(s Shape) (body, arms []*ssa.BasicBlock) {
	in := map[*ssa.BasicBlock]bool{s.Header: true}
	var stack []*ssa.BasicBlock
	for _, p := range s.Header.Preds {
		if contains(s.Blocks, p) {
			stack = append(stack, p)
		}
	}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if in[b] {
			continue
		}
		in[b] = true
		for _, p := range b.Preds {
			if contains(s.Blocks, p) {
				stack = append(stack, p)
			}
		}
	}
	for _, b := range s.Blocks {
		if in[b] {
			body = append(body, b)
		} else {
			arms = append(arms, b)
		}
	}
	return body, arms
}

func less(a, b *Loop) bool {
	if a.Pos != b.Pos {
		return a.Pos < b.Pos
	}
	return a.Header.Index < b.Header.Index
}

func subset(blocks []*ssa.BasicBlock, l *Loop) bool {
	for _, b := range blocks {
		if !l.Contains(b) {
			return false
		}
	}
	return true
}
