package loopnest

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"golang.org/x/tools/go/ssa"
)

// maxInlineDepth bounds how deep calls inside calls are followed.
const maxInlineDepth = 4

// findCalls records the calls of program functions made by the loop's own
// code (its blocks outside its inner loops), with their arguments as
// expressions of the caller: what inlineCallees needs to restate the
// callee's loops. An argument whose expression needs data the loop
// computes (a load in the loop, a value of another loop) has none.
func (fa *funcAnalysis) findCalls(l *Loop) {
	inner := map[*ssa.BasicBlock]bool{}
	for _, c := range l.Inner {
		for _, b := range c.Blocks {
			inner[b] = true
		}
	}
	for _, b := range l.Blocks {
		if !inner[b] {
			l.calls = append(l.calls, fa.callSites(b, l)...)
		}
	}
}

// findBodyCalls records the calls of program functions that every call of
// the function makes outside its loops (their blocks dominate each
// return): a wrapper's call of the kernel it wraps (a sweep, then a swap
// of the buffers), whose loops a nest calling the wrapper counts.
func (fa *funcAnalysis) findBodyCalls(f *Func) {
	var returns []*ssa.BasicBlock
	for _, b := range fa.fn.Blocks {
		if len(b.Instrs) > 0 {
			if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				returns = append(returns, b)
			}
		}
	}
	inLoop := map[*ssa.BasicBlock]bool{}
	for _, l := range f.Loops {
		for _, b := range l.Blocks {
			inLoop[b] = true
		}
		for _, b := range l.Arms {
			inLoop[b] = true
		}
	}
	for _, b := range fa.fn.Blocks {
		always := len(returns) > 0 && !inLoop[b]
		for _, r := range returns {
			always = always && b.Dominates(r)
		}
		if always {
			f.calls = append(f.calls, fa.callSites(b, nil)...)
		}
	}
}

// callSites are the calls of program functions in b, made in loop l's own
// code (nil: the function's, outside its loops).
func (fa *funcAnalysis) callSites(b *ssa.BasicBlock, l *Loop) []*CallSite {
	var sites []*CallSite
	for _, in := range b.Instrs {
		call, ok := in.(*ssa.Call)
		if !ok {
			continue
		}
		callee := call.Common().StaticCallee()
		if callee == nil || callee == fa.fn || len(callee.FreeVars) > 0 || !fa.a.own(callee) {
			continue
		}
		site := &CallSite{Call: call, Callee: callee, In: l,
			Args: make([]symbolic.Expr, len(call.Common().Args)), Lens: make([]symbolic.Expr, len(call.Common().Args))}
		for i, arg := range call.Common().Args {
			if isInteger(arg.Type()) {
				site.Args[i] = fa.siteExpr(l, func(c *exprCtx) (symbolic.Expr, error) { return c.expr(arg, 0) })
			} else if hasLen(arg.Type()) {
				site.Lens[i] = fa.siteExpr(l, func(c *exprCtx) (symbolic.Expr, error) { return c.length(arg, 0) })
			}
		}
		sites = append(sites, site)
	}
	return sites
}

// siteExpr builds an expression at a call in l's own code: in a context
// whose loop holds no block, so that values of l's iteration (its
// induction variables, what the body computes from them) are expressions
// rather than "computed inside the loop". Nil if the expression depends
// on data.
func (fa *funcAnalysis) siteExpr(l *Loop, build func(*exprCtx) (symbolic.Expr, error)) symbolic.Expr {
	at := &Loop{ID: fa.fn.Name() + "/call", Func: fa.fn}
	if l != nil {
		at = &Loop{ID: l.ID + "/call", Func: fa.fn, Parent: l}
	}
	c := &exprCtx{fa: fa, loop: at}
	e, err := build(c)
	if err != nil || len(c.dataDep) > 0 {
		return nil
	}
	return e
}

func hasLen(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0
	}
	return false
}

// length is the expression of len(v) for a slice or string v: the bounds
// of a slice expression, the length of a make, else len(v) as a symbol
// that an evaluator binds to v's length.
func (c *exprCtx) length(v ssa.Value, depth int) (symbolic.Expr, error) {
	if depth > maxExprDepth {
		return nil, errors.New("length expression too deep")
	}
	switch v := v.(type) {
	case *ssa.MakeSlice:
		return c.expr(v.Len, depth+1)
	case *ssa.ChangeType:
		return c.length(v.X, depth+1)
	case *ssa.Slice:
		var hi symbolic.Expr
		var err error
		switch {
		case v.High != nil:
			hi, err = c.expr(v.High, depth+1)
		default:
			hi, err = c.sliceOperandLen(v.X, depth+1)
		}
		if err != nil {
			return nil, err
		}
		if v.Low == nil {
			return hi, nil
		}
		lo, err := c.expr(v.Low, depth+1)
		if err != nil {
			return nil, err
		}
		return symbolic.NewSub(hi, lo), nil
	case *ssa.Phi, *ssa.Call, *ssa.UnOp, *ssa.Extract, *ssa.Lookup, *ssa.Index, *ssa.Field:
		if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
			// A row of a slice of rows (axpy(y[i], x)) that nothing in
			// the loops around the call rewrites: read at the nest's
			// entry, element by element as the counting binds i.
			if m := c.memPath(ld, depth); m != nil {
				return &symbolic.Sym{Name: "len(" + c.fa.render(v) + ")", Kind: symbolic.Len, Of: v, Mem: m}, nil
			}
		}
		// What the loop's data decide: bound only if computed before the
		// loops around the call, or a double buffer of one of them,
		// whose length the evaluator knows at that loop's entry when
		// both buffers are as long (Rotation).
		if phi, ok := v.(*ssa.Phi); ok && c.fa.rotating(phi) {
			return c.lenSym(v), nil
		}
		for p := c.loop.Parent; p != nil; p = p.Parent {
			if b := blockOf(v); b != nil && p.Contains(b) {
				return nil, fmt.Errorf("%s is computed inside the loop", c.fa.render(v))
			}
		}
	}
	c.noteInEnclosing(v)
	return c.lenSym(v), nil
}

// lenSym is len(v) as a symbol that an evaluator binds to v's length.
func (c *exprCtx) lenSym(v ssa.Value) *symbolic.Sym {
	return &symbolic.Sym{Name: "len(" + c.fa.render(v) + ")", Kind: symbolic.Len, Value: v, Of: v}
}

// sliceOperandLen is the length of what a slice expression slices.
func (c *exprCtx) sliceOperandLen(x ssa.Value, depth int) (symbolic.Expr, error) {
	if p, ok := x.Type().Underlying().(*types.Pointer); ok {
		if a, ok := p.Elem().Underlying().(*types.Array); ok {
			return symbolic.Const(a.Len()), nil
		}
		return nil, errors.New("slice of a pointer to a non-array")
	}
	return c.length(x, depth)
}

// inlineCallees gives every loop of every reduced nest its Callees: for
// each call the loop's own code makes of a program function, copies of
// the callee's root loops, their counting expressions restated in the
// caller's terms. A call is left out (the callee's time then stays in the
// caller's measured time per iteration, which does not scale with the
// callee's own trip counts) when the callee is used as a value (calls
// through it would be in the profile's totals of its loops, and no call
// statement tells how many), when one of its root loops is not counted,
// or when a counting expression needs a value the caller cannot bind. A
// callee with other call statements is counted all the same: the
// prediction takes this statement's share of the loops' entries from the
// statements' calls (a kernel that a serial check calls too).
func (a *Analyzer) inlineCallees(p *Program) {
	byFn := map[*ssa.Function]*Func{}
	for _, f := range append(slices.Clip(p.Funcs), p.wrappers...) {
		byFn[f.Fn] = f
	}
	for _, root := range p.Nests() {
		nest := map[*ssa.BasicBlock]bool{}
		for _, b := range root.Blocks {
			nest[b] = true
		}
		in := &inliner{a: a, byFn: byFn, root: root, nest: nest}
		root.Walk(func(l *Loop) {
			l.Callees = in.expand(l, l.calls, nil, map[*ssa.Function]bool{root.Func: true}, 0)
		})
		for _, l := range root.Inner {
			in.bindableGuards(l)
		}
	}
}

type inliner struct {
	a    *Analyzer
	byFn map[*ssa.Function]*Func
	root *Loop
	nest map[*ssa.BasicBlock]bool
}

// expand returns the callee copies for the calls of loop l (an original
// loop or a copy). outer restates the expressions of the function the
// calls are made in in the nest's terms (nil in the nest's own function).
func (in *inliner) expand(l *Loop, calls []*CallSite, outer func(*symbolic.Sym) (symbolic.Expr, bool, error), active map[*ssa.Function]bool, depth int) []*Loop {
	var out []*Loop
	for _, s := range calls {
		g := s.Callee
		f := in.byFn[g]
		if f == nil || active[g] || depth >= maxInlineDepth || in.a.usedAsValue()[g] {
			continue
		}
		site := &CallSite{Call: s.Call, Callee: g, In: l, Args: make([]symbolic.Expr, len(s.Args)), Lens: make([]symbolic.Expr, len(s.Lens))}
		for i := range s.Args {
			site.Args[i] = in.restate(s.Args[i], outer)
			site.Lens[i] = in.restate(s.Lens[i], outer)
		}
		site.Guards = restateGuards(s.Guards, func(e symbolic.Expr) (symbolic.Expr, error) { return in.restate(e, outer), nil })
		repl := in.paramRepl(site, outer)
		var copies []*Loop
		ok := true
		for _, r := range f.Roots {
			if r.Trip == nil || r.DataDependent || r.UpperBound {
				ok = false
				break
			}
			c, err := copyLoop(r, l, site, repl)
			if err != nil || !in.bindable(c) {
				ok = false
				break
			}
			c.Guards = site.Guards
			in.bindableGuards(c)
			copies = append(copies, c)
		}
		if !ok {
			continue
		}
		active[g] = true
		for _, c := range copies {
			c.WalkAll(func(x *Loop) {
				if x.Inlined == site {
					x.Callees = in.expand(x, x.calls, repl, active, depth+1)
				}
			})
		}
		// What g calls on every call, outside its loops, runs once per
		// call of g: in l's iteration, as if l called it.
		copies = append(copies, in.expand(l, f.calls, repl, active, depth+1)...)
		delete(active, g)
		out = append(out, copies...)
	}
	return out
}

// restate substitutes outer in e; nil if e is nil or cannot be restated.
func (in *inliner) restate(e symbolic.Expr, outer func(*symbolic.Sym) (symbolic.Expr, bool, error)) symbolic.Expr {
	if e == nil || outer == nil {
		return e
	}
	r, err := symbolic.Substitute(e, outer)
	if err != nil {
		return nil
	}
	return r
}

// paramRepl restates a symbol of the callee's counting expressions in the
// caller's terms: a parameter is the call's argument, len of a parameter
// the argument's length, a value the callee computes from them its
// definition; the callee's own induction variables stay (the counting
// binds them).
func (in *inliner) paramRepl(site *CallSite, outer func(*symbolic.Sym) (symbolic.Expr, bool, error)) func(*symbolic.Sym) (symbolic.Expr, bool, error) {
	g := site.Callee
	param := func(v ssa.Value) (int, bool) {
		for i, p := range g.Params {
			if p == v {
				return i, true
			}
		}
		return 0, false
	}
	var repl func(s *symbolic.Sym) (symbolic.Expr, bool, error)
	repl = func(s *symbolic.Sym) (symbolic.Expr, bool, error) {
		if s.Mem != nil && s.Value == nil {
			m, err := in.restateMem(site, s.Mem, repl, outer)
			if err != nil {
				return nil, false, err
			}
			return &symbolic.Sym{Name: s.Name, Kind: s.Kind, Of: s.Of, Mem: m}, true, nil
		}
		switch s.Kind {
		case symbolic.Param:
			if i, ok := param(s.Value); ok && site.Args[i] != nil {
				return site.Args[i], true, nil
			}
		case symbolic.Len:
			if i, ok := param(s.Of); ok && site.Lens[i] != nil {
				return site.Lens[i], true, nil
			}
		case symbolic.Induction:
			if phi, ok := s.Value.(*ssa.Phi); ok && phi.Parent() == g {
				return nil, false, nil
			}
		case symbolic.Pre:
			if s.Def != nil {
				def, err := symbolic.Substitute(s.Def, repl)
				if err != nil {
					return nil, false, err
				}
				return &symbolic.Sym{Name: s.Name, Kind: symbolic.Pre, Def: def}, true, nil
			}
			// A size the callee loads before its loops (n := d.n, d
			// its receiver): read along the same path from the call's
			// argument when the nest is entered.
			if p, steps, ok := paramLoad(s.Value); ok {
				m, err := in.restateMem(site, &symbolic.MemPath{Base: p, Steps: steps}, repl, outer)
				if err != nil {
					return nil, false, err
				}
				return &symbolic.Sym{Name: s.Name, Kind: symbolic.Mem, Mem: m}, true, nil
			}
		}
		return nil, false, fmt.Errorf("loopnest: %s in %s has no value at the call", s.Name, g)
	}
	return repl
}

// restateMem restates a path the callee reads its count along (d.n, d
// its receiver) from the call's argument: the argument must be a value of
// the nest's function known before the nest, and no loop from the
// calling one out to the nest's root may store a value of a type read on
// the way (the callee's own loops were checked when its path was made).
func (in *inliner) restateMem(site *CallSite, m *symbolic.MemPath, repl, outer func(*symbolic.Sym) (symbolic.Expr, bool, error)) (*symbolic.MemPath, error) {
	base := m.Base
	if p, isParam := base.(*ssa.Parameter); isParam {
		if i := slices.Index(site.Callee.Params, p); i >= 0 {
			base = site.Call.Call.Args[i]
		}
	}
	steps, err := restateSteps(m.Steps, repl)
	if err != nil {
		return nil, err
	}
	if p, isParam := base.(*ssa.Parameter); isParam && p.Parent() != in.root.Func && outer != nil {
		// A parameter of the function that made the call (a wrapper
		// the nest calls): the call of that function restates it.
		e, ok, err := outer(&symbolic.Sym{Name: p.Name(), Kind: symbolic.Mem, Mem: &symbolic.MemPath{Base: p, Steps: steps}})
		if err != nil || !ok {
			return nil, fmt.Errorf("loopnest: %s has no value at the call of %s", p.Name(), p.Parent())
		}
		if sym, isSym := e.(*symbolic.Sym); isSym && sym.Mem != nil {
			return sym.Mem, nil
		}
		return nil, fmt.Errorf("loopnest: %s has no path at the call of %s", p.Name(), p.Parent())
	}
	if _, global := base.(*ssa.Global); !global && (base.Parent() != in.root.Func || in.nest[blockOf(base)]) {
		return nil, fmt.Errorf("loopnest: %s has no value when the nest is entered", base.Name())
	}
	out := &symbolic.MemPath{Base: base, Steps: steps}
	loads, ok := pathTypes(base.Type(), m.Steps)
	if !ok {
		return nil, fmt.Errorf("loopnest: the path from %s does not fit its type", base.Name())
	}
	var around []*Loop // from the calling loop out to the nest's root
	for l := site.In; l != nil; l = l.Parent {
		around = append(around, l)
		if l == in.root {
			break
		}
	}
	if l := in.a.storingLoop(around, loads...); l != nil {
		return nil, fmt.Errorf("loopnest: %s may change in the loop %s", base.Name(), l.ID)
	}
	return out, nil
}

// restateSteps is steps with their indexes restated by repl.
func restateSteps(steps []symbolic.MemStep, repl func(*symbolic.Sym) (symbolic.Expr, bool, error)) ([]symbolic.MemStep, error) {
	out := make([]symbolic.MemStep, len(steps))
	for i, st := range steps {
		out[i] = st
		if st.Index != nil {
			ix, err := symbolic.Substitute(st.Index, repl)
			if err != nil {
				return nil, err
			}
			out[i].Index = ix
		}
	}
	return out, nil
}

// paramLoad is the path of a load v from a parameter through fields of
// the structs it points to (d.n, d.grid.rows): the parameter and the
// steps; ok is false for anything else.
func paramLoad(v ssa.Value) (*ssa.Parameter, []symbolic.MemStep, bool) {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil, nil, false
	}
	switch a := ld.X.(type) {
	case *ssa.Parameter:
		return a, []symbolic.MemStep{{Field: symbolic.Deref}}, true
	case *ssa.FieldAddr:
		if p, isParam := a.X.(*ssa.Parameter); isParam {
			return p, []symbolic.MemStep{{Field: a.Field}}, true
		}
		if p, steps, ok := paramLoad(a.X); ok {
			return p, append(steps, symbolic.MemStep{Field: a.Field}), true
		}
	}
	return nil, nil, false
}

// pathTypes are the types of the values a path's steps load from a base
// of type t; ok is false when a step does not fit the type before it.
func pathTypes(t types.Type, steps []symbolic.MemStep) (out []loaded, ok bool) {
	for _, step := range steps {
		switch step.Field {
		case symbolic.Deref:
			p, isPtr := t.Underlying().(*types.Pointer)
			if !isPtr {
				return nil, false
			}
			t = p.Elem()
		case symbolic.Elem:
			sl, isSlice := t.Underlying().(*types.Slice)
			if !isSlice {
				return nil, false
			}
			t = sl.Elem()
		default:
			p, isPtr := t.Underlying().(*types.Pointer)
			if !isPtr {
				return nil, false
			}
			st, isStruct := p.Elem().Underlying().(*types.Struct)
			if !isStruct || step.Field >= st.NumFields() {
				return nil, false
			}
			t = st.Field(step.Field).Type()
			out = append(out, loaded{t: t, field: !isArray(t)})
			continue
		}
		out = append(out, loaded{t: t})
	}
	return out, true
}

// copyLoop copies the callee loop r and its inner loops with their
// counting expressions restated by repl; the copy hangs under parent.
func copyLoop(r, parent *Loop, site *CallSite, repl func(*symbolic.Sym) (symbolic.Expr, bool, error)) (*Loop, error) {
	sub := func(e symbolic.Expr) (symbolic.Expr, error) { return symbolic.Substitute(e, repl) }
	c := &Loop{ID: r.ID, Pos: r.Pos, Func: r.Func, Header: r.Header, Blocks: r.Blocks, Arms: r.Arms, Region: r.Region,
		Parent: parent, Depth: parent.Depth + 1, BottomTest: r.BottomTest, UpperBound: r.UpperBound,
		DataDependent: r.DataDependent, RankSize: r.RankSize, Reduction: r.Reduction, Inlined: site,
		calls: r.calls} // in the callee's terms: expand restates them
	var err error
	if c.Trip, err = sub(r.Trip); err != nil {
		return nil, err
	}
	if c.First, err = sub(r.First); err != nil {
		return nil, err
	}
	for _, iv := range r.IVs {
		civ := *iv
		if civ.Init, err = sub(iv.Init); err != nil {
			return nil, err
		}
		if civ.StepExpr, err = sub(iv.StepExpr); err != nil {
			return nil, err
		}
		if iv == r.Counter {
			c.Counter = &civ
		}
		c.IVs = append(c.IVs, &civ)
	}
	for _, x := range r.Inner {
		if x.Trip == nil {
			// A data-dependent inner loop: its time is its counted
			// parent's, as in the callee itself.
			continue
		}
		ci, err := copyLoop(x, c, site, repl)
		if err != nil {
			return nil, err
		}
		ci.Guards = restateGuards(x.Guards, sub)
		c.Inner = append(c.Inner, ci)
	}
	return c, nil
}

// bindable reports whether every symbol of the copy's counting
// expressions can be given a value when the nest is entered: a value of
// the nest's function computed before the nest, an induction variable of
// a loop in the nest or in a copy (the counting binds those), or a
// definition in such terms.
func (in *inliner) bindable(c *Loop) bool { return in.bindableExprs(c, c.countingExprs) }

// bindableGuards drops the guards of c and the loops inside it whose
// expressions cannot all be given a value when the nest is entered: the
// loop is then counted in every iteration, as without guards.
func (in *inliner) bindableGuards(c *Loop) {
	c.WalkAll(func(x *Loop) {
		var kept []Guard
		for _, g := range x.Guards {
			if in.bindableExprs(c, func(f func(symbolic.Expr)) { f(g.X); f(g.Y) }) {
				kept = append(kept, g)
			}
		}
		x.Guards = kept
	})
}

// bindableExprs is bindable for the expressions each gives.
func (in *inliner) bindableExprs(c *Loop, each func(func(symbolic.Expr))) bool {
	ivs := map[ssa.Value]bool{}
	for l := c; l != nil; l = l.Parent {
		for _, iv := range l.IVs {
			ivs[iv.Phi] = true
		}
	}
	c.WalkAll(func(x *Loop) {
		for _, iv := range x.IVs {
			ivs[iv.Phi] = true
		}
	})
	ok := true
	check := func(e symbolic.Expr) {
		symbolic.Uses(e, func(s *symbolic.Sym) bool {
			switch {
			case s.Value == nil && s.Mem != nil:
				// Read from memory at the nest's entry (a row y[i] of a
				// slice of rows defined before it); Uses checks the
				// indexes.
				base := s.Mem.Base
				_, global := base.(*ssa.Global)
				if !global && (base.Parent() != in.root.Func || in.nest[blockOf(base)]) {
					ok = false
				}
			case s.Value == nil:
				if s.Def == nil {
					ok = false
				}
			case s.Kind == symbolic.Rank || s.Kind == symbolic.Size:
				// The evaluator knows the rank and the rank count
				// whether or not the call ran.
			case ivs[s.Value]:
			case in.root.rotates(s.Value):
				// A double buffer of the root: the evaluator answers
				// its length when every buffer it takes entered as long.
			case s.Value.Parent() != in.root.Func:
				ok = false
			default:
				// Computed inside the nest, which is not executed: only
				// its definition can give it a value.
				if b := blockOf(s.Value); b != nil && in.nest[b] && s.Def == nil {
					ok = false
				}
			}
			return false
		})
	}
	each(check)
	return ok
}
