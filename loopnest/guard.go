package loopnest

import (
	"fmt"
	"go/token"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"golang.org/x/tools/go/ssa"
)

// Guard is a test on the rank or the rank count that decides, in each
// iteration of a loop, whether the code behind it runs: the cyclic
// distribution `if i%size != rank { continue }`, an owner test, `if rank
// == 0`. A reduced nest counts what a guard protects (an inner loop, the
// loops of a kernel called) only in the iterations where it holds, so
// that a loop over all items whose work each rank does a share of costs a
// share.
type Guard struct {
	If *ssa.If
	// Want is the outcome of the test that leads to the guarded code.
	Want bool
	// Op compares X and Y (token.EQL, NEQ, LSS, LEQ, GTR or GEQ).
	Op   token.Token
	X, Y symbolic.Expr
}

// Holds evaluates the guard under env.
func (g *Guard) Holds(env symbolic.Env) (bool, error) {
	x, err := g.X.Eval(env)
	if err != nil {
		return false, err
	}
	y, err := g.Y.Eval(env)
	if err != nil {
		return false, err
	}
	r, _ := symbolic.Compare(g.Op, x, y)
	return r == g.Want, nil
}

// String prints the condition under which the guarded code runs.
func (g *Guard) String() string {
	op := g.Op
	if !g.Want {
		op = map[token.Token]token.Token{token.EQL: token.NEQ, token.NEQ: token.EQL, token.LSS: token.GEQ,
			token.GEQ: token.LSS, token.LEQ: token.GTR, token.GTR: token.LEQ}[op]
	}
	return fmt.Sprintf("%s %s %s", g.X, op, g.Y)
}

// Branch is the block whose test the guard is, and the index of the
// successor that leads to the guarded code.
func (g *Guard) Branch() (*ssa.BasicBlock, int) {
	if g.Want {
		return g.If.Block(), 0
	}
	return g.If.Block(), 1
}

// restateGuards is gs with their expressions restated by sub, less
// those it cannot restate (the loop is then counted where they fail
// too, as without them).
func restateGuards(gs []Guard, sub func(symbolic.Expr) (symbolic.Expr, error)) []Guard {
	var out []Guard
	for _, g := range gs {
		x, err := sub(g.X)
		if err != nil || x == nil {
			continue
		}
		y, err := sub(g.Y)
		if err != nil || y == nil {
			continue
		}
		g.X, g.Y = x, y
		out = append(out, g)
	}
	return out
}

// guardsAt returns the guards under which block b, in l's own code, runs
// in an iteration of l: the tests on the rank or rank count, in l's own
// blocks, that b is reached through one arm of (b's dominators whose
// successor on the way to b has no other way in). Tests that leave the
// loop are its exit tests, not guards.
func (fa *funcAnalysis) guardsAt(l *Loop, b *ssa.BasicBlock) []Guard {
	in := map[*ssa.BasicBlock]bool{}
	for _, x := range l.Blocks {
		in[x] = true
	}
	inner := map[*ssa.BasicBlock]bool{}
	for _, c := range l.Inner {
		for _, x := range c.Blocks {
			inner[x] = true
		}
	}
	var out []Guard
	for child, d := b, b.Idom(); d != nil && in[d]; child, d = d, d.Idom() {
		if !inner[d] && len(d.Instrs) > 0 && len(child.Preds) == 1 {
			test, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
			if ok && in[d.Succs[0]] && in[d.Succs[1]] && (child == d.Succs[0] || child == d.Succs[1]) {
				if g, ok := fa.guard(l, test, child == d.Succs[0]); ok {
					out = append(out, g)
				}
			}
		}
		if d == l.Header {
			break
		}
	}
	return out
}

// guard makes a Guard of test when it compares integers with expressions
// in l's iteration (l's induction variables, values from before the loop)
// and depends on Rank() or Size().
func (fa *funcAnalysis) guard(l *Loop, test *ssa.If, want bool) (Guard, bool) {
	cmp, ok := test.Cond.(*ssa.BinOp)
	if !ok || !isInteger(cmp.X.Type()) {
		return Guard{}, false
	}
	switch cmp.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return Guard{}, false
	}
	if !fa.a.dependsOnRankSize(cmp.X, map[ssa.Value]bool{}) && !fa.a.dependsOnRankSize(cmp.Y, map[ssa.Value]bool{}) {
		return Guard{}, false
	}
	x := fa.siteExpr(l, func(c *exprCtx) (symbolic.Expr, error) { return c.expr(cmp.X, 0) })
	y := fa.siteExpr(l, func(c *exprCtx) (symbolic.Expr, error) { return c.expr(cmp.Y, 0) })
	if x == nil || y == nil {
		return Guard{}, false
	}
	return Guard{If: test, Want: want, Op: cmp.Op, X: x, Y: y}, true
}

// findGuards sets the guards of l's inner loops (where each is entered
// from l's code) and of the calls l's own code makes.
func (fa *funcAnalysis) findGuards(l *Loop) {
	for _, c := range l.Inner {
		if entry := preheader(c); entry != nil {
			c.Guards = fa.guardsAt(l, entry)
		}
	}
	for _, s := range l.calls {
		s.Guards = fa.guardsAt(l, s.Call.Block())
	}
}

// preheader is the one block outside l that enters l's header, nil if
// there are several.
func preheader(l *Loop) *ssa.BasicBlock {
	var entry *ssa.BasicBlock
	for _, p := range l.Header.Preds {
		if l.Contains(p) {
			continue
		}
		if entry != nil && entry != p {
			return nil
		}
		entry = p
	}
	return entry
}

// guardEnumLimit bounds the iterations guardedRuns tests one by one; a
// longer loop is counted by its period when the guards have one (a
// cyclic distribution's i%size), else its guards are taken to hold.
const guardEnumLimit = 1 << 16

// ivBinding gives l's induction variables their values in iteration k.
type ivBinding struct {
	l           *Loop
	start, step []int64
	bound       map[ssa.Value]bool
}

func bindIVs(l *Loop, env symbolic.Env) ivBinding {
	b := ivBinding{l: l, start: make([]int64, len(l.IVs)), step: make([]int64, len(l.IVs)), bound: map[ssa.Value]bool{}}
	for i, iv := range l.IVs {
		if iv.Init == nil {
			continue
		}
		start, err := iv.Init.Eval(env)
		if err != nil {
			continue
		}
		step := iv.Step
		if iv.StepExpr != nil {
			if step, err = iv.StepExpr.Eval(env); err != nil {
				continue
			}
		}
		b.start[i], b.step[i] = start, step
		b.bound[iv.Phi] = true
	}
	return b
}

func (b ivBinding) set(vals symbolic.Values, k int64) {
	for i, iv := range b.l.IVs {
		if !b.bound[iv.Phi] {
			continue
		}
		if !iv.Geometric() {
			vals[ssa.Value(iv.Phi)] = b.start[i] + k*b.step[i]
			continue
		}
		// At most 64 steps: a geometric variable overflows or stops
		// changing (0, or -1 shifted) by then.
		v, ok := b.start[i], true
		for j := int64(0); j < k && ok; j++ {
			next, fine := iv.Geom.Apply(v)
			if fine && next == v {
				break
			}
			v, ok = next, fine
		}
		if ok {
			vals[ssa.Value(iv.Phi)] = v
		} else {
			delete(vals, ssa.Value(iv.Phi))
		}
	}
}

// usable drops the guards that use an induction variable of l the
// binding has no values for.
func (b ivBinding) usable(gs []Guard) []Guard {
	var out []Guard
	for _, g := range gs {
		if !b.usesIV(g.X, true) && !b.usesIV(g.Y, true) {
			out = append(out, g)
		}
	}
	return out
}

// usesIV reports whether e uses one of l's induction variables (unbound
// ones only, with unbound set).
func (b ivBinding) usesIV(e symbolic.Expr, unbound bool) bool {
	return symbolic.Uses(e, func(s *symbolic.Sym) bool {
		for _, iv := range b.l.IVs {
			if s.Value == ssa.Value(iv.Phi) {
				return !unbound || !b.bound[iv.Phi]
			}
		}
		return false
	})
}

// holdAll reports whether every guard holds under env; one that cannot
// be evaluated is taken to hold.
func holdAll(gs []Guard, env symbolic.Env) bool {
	for i := range gs {
		if ok, err := gs[i].Holds(env); err == nil && !ok {
			return false
		}
	}
	return true
}

// guardedRuns is how many of l's n iterations under env its guards gs
// hold in.
func guardedRuns(l *Loop, gs []Guard, env symbolic.Env, n int64) int64 {
	b := bindIVs(l, env)
	if gs = b.usable(gs); len(gs) == 0 {
		return n
	}
	perIteration := false
	for _, g := range gs {
		perIteration = perIteration || b.usesIV(g.X, false) || b.usesIV(g.Y, false)
	}
	if !perIteration {
		if holdAll(gs, env) {
			return n
		}
		return 0
	}
	vals := symbolic.Values{}
	inner := symbolic.Chain{vals, env}
	runs := func(from, to int64) int64 {
		r := int64(0)
		for k := from; k < to; k++ {
			b.set(vals, k)
			if holdAll(gs, inner) {
				r++
			}
		}
		return r
	}
	if n <= guardEnumLimit {
		return runs(0, n)
	}
	if t, ok := b.period(gs, env, n); ok {
		return n/t*runs(0, t) + runs(0, n%t)
	}
	return n
}

// period is a number of iterations after which the guards' outcomes
// repeat: every use of an induction variable of l is in the dividend of
// a remainder whose divisor does not change in the loop, and the
// dividend is linear in the induction variables and not negative at the
// first and last iterations (Go's % of a negative number is negative, so
// crossing zero would break the period).
func (b ivBinding) period(gs []Guard, env symbolic.Env, n int64) (int64, bool) {
	t := int64(1)
	ok := true
	vals := symbolic.Values{}
	inner := symbolic.Chain{vals, env}
	var walk func(e symbolic.Expr)
	walk = func(e symbolic.Expr) {
		if !ok {
			return
		}
		switch e := e.(type) {
		case *symbolic.Sym:
			if b.usesIV(e, false) {
				// Bare, or through a definition: not periodic.
				ok = false
			}
		case *symbolic.Binary:
			if e.Op != symbolic.Rem || !b.usesIV(e.X, false) {
				walk(e.X)
				walk(e.Y)
				return
			}
			m, err := e.Y.Eval(env)
			if err != nil || m <= 0 || b.usesIV(e.Y, false) || !b.linear(e.X) {
				ok = false
				return
			}
			for _, k := range []int64{0, n - 1} {
				b.set(vals, k)
				if x, err := e.X.Eval(inner); err != nil || x < 0 {
					ok = false
					return
				}
			}
			t = lcm(t, m)
			if t > guardEnumLimit {
				ok = false
			}
		case *symbolic.Call:
			for _, a := range e.Args {
				walk(a)
			}
		}
	}
	for _, g := range gs {
		walk(g.X)
		walk(g.Y)
	}
	return t, ok
}

// linear reports whether e is a sum of terms each at most one induction
// variable of l times what does not change in the loop.
func (b ivBinding) linear(e symbolic.Expr) bool {
	switch e := e.(type) {
	case symbolic.Const:
		return true
	case *symbolic.Sym:
		if e.Def != nil && b.usesIV(e.Def, false) {
			return false
		}
		return true
	case *symbolic.Binary:
		switch e.Op {
		case symbolic.Add, symbolic.Sub:
			return b.linear(e.X) && b.linear(e.Y)
		case symbolic.Mul:
			x, y := b.usesIV(e.X, false), b.usesIV(e.Y, false)
			return !(x && y) && b.linear(e.X) && b.linear(e.Y)
		}
	}
	return !b.usesIV(e, false)
}

func lcm(a, b int64) int64 {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}
