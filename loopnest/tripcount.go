package loopnest

import (
	"fmt"
	"go/token"
	"go/types"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"golang.org/x/tools/go/ssa"
)

// exit is a control-flow edge leaving a loop.
type exit struct {
	from, to *ssa.BasicBlock
}

// counterTest is an exit test of the form IV+off OP bound, normalised so
// that the loop goes on while it holds.
type counterTest struct {
	iv    *IV
	off   int64
	op    token.Token
	bound ssa.Value
}

// tripCount finds the loop's counter, trip count and flags.
func (fa *funcAnalysis) tripCount(l *Loop) {
	exits := loopExits(l)
	if len(exits) == 0 {
		l.Notes = append(l.Notes, "no exit: the loop only ends with the program")
		return
	}
	primary := -1
	var test counterTest
	// Prefer a test in the header (a for loop's condition), then one in a
	// latch (a rotated loop's test after the body).
	for pass := 0; pass < 2 && primary < 0; pass++ {
		for i, e := range exits {
			if pass == 0 && e.from != l.Header || pass == 1 && !isLatch(l, e.from) {
				continue
			}
			if t, ok := fa.counterTest(l, e); ok {
				primary, test = i, t
				break
			}
		}
	}
	for i, e := range exits {
		if i == primary {
			continue
		}
		if primary >= 0 {
			l.UpperBound = true
		}
		fa.noteExit(l, e, primary >= 0)
	}
	if primary < 0 {
		if !l.DataDependent && l.Trip == nil && !l.UpperBound {
			l.Notes = append(l.Notes, "no exit test compares an induction variable with a bound fixed at entry")
		}
		return
	}
	fa.countFrom(l, exits[primary], test)
}

// countFrom computes the trip count from the counter test.
func (fa *funcAnalysis) countFrom(l *Loop, e exit, t counterTest) {
	l.Counter = t.iv
	ctx := &exprCtx{fa: fa, loop: l}
	bound, err := ctx.expr(t.bound, 0)
	if err != nil {
		l.DataDependent = true
		l.Notes = append(l.Notes, fmt.Sprintf("bound of the exit test at %s: %v", fa.pos(e.from), err))
		return
	}
	if t.iv.Init == nil {
		l.Notes = append(l.Notes, fmt.Sprintf("initial value of %s has no expression", t.iv.Name))
		return
	}
	init := fa.ivInit[t.iv]
	l.RankSize = fa.a.dependsOnRankSize(t.bound, map[ssa.Value]bool{}) || fa.a.dependsOnRankSize(init, map[ssa.Value]bool{})
	if t.iv.StepExpr != nil {
		l.RankSize = l.RankSize || fa.a.dependsOnRankSize(fa.ivStep[t.iv], map[ssa.Value]bool{})
	}
	if l.RankSize {
		l.OnRank = fa.a.dependsOnRank(t.bound) || fa.a.dependsOnRank(init) || (t.iv.StepExpr != nil && fa.a.dependsOnRank(fa.ivStep[t.iv]))
	}
	if len(ctx.dataDep) > 0 {
		l.DataDependent = true
		l.Notes = append(l.Notes, ctx.dataDep...)
	}
	if t.iv.Geometric() {
		fa.countGeometric(l, e, t, bound)
		return
	}
	start := symbolic.NewAdd(t.iv.Init, symbolic.Const(t.off))
	l.First = start
	if isLatch(l, e.from) {
		l.First = t.iv.Init
	}
	count := func(start symbolic.Expr) (symbolic.Expr, error) {
		if t.iv.StepExpr != nil {
			return symbolic.TripCountBy(start, bound, t.iv.StepExpr, t.op)
		}
		return symbolic.TripCount(start, bound, t.iv.Step, t.op)
	}
	l.BottomTest = isLatch(l, e.from)
	if l.BottomTest && t.iv.StepExpr == nil && t.off == t.iv.Step && fa.guarded(l, init, t) {
		// for i := range n: go/ssa tests 0 < n before the loop and i+1 < n
		// after the body, which together count like i < n at the top.
		trip, err := count(t.iv.Init)
		fa.setTrip(l, trip, err)
		return
	}
	trip, err := count(start)
	if err == nil && l.BottomTest {
		// The body runs once before the first test.
		trip = symbolic.NewAdd(trip, symbolic.Const(1))
		l.Notes = append(l.Notes, "the exit test follows the body: it runs at least once")
	}
	fa.setTrip(l, trip, err)
}

// countGeometric counts a loop whose counter is multiplied or divided
// each iteration (for half := 1; half < n; half *= 2): the test's offset
// moves to the bound (half+1 < n is half < n-1). A geometric counter
// tested after the body is left uncounted (go/ssa tests a for loop's
// condition in its header; a hand-rotated loop is rare).
func (fa *funcAnalysis) countGeometric(l *Loop, e exit, t counterTest, bound symbolic.Expr) {
	l.First = t.iv.Init
	if isLatch(l, e.from) {
		l.Notes = append(l.Notes, fmt.Sprintf("counter %s: geometric (%s) and tested after the body", t.iv.Name, t.iv.Geom))
		return
	}
	trip, err := symbolic.GeomTripCount(t.iv.Init, symbolic.NewSub(bound, symbolic.Const(t.off)), t.iv.Geom, t.op)
	fa.setTrip(l, trip, err)
}

func (fa *funcAnalysis) setTrip(l *Loop, trip symbolic.Expr, err error) {
	if err != nil {
		l.Notes = append(l.Notes, fmt.Sprintf("counter %s: %v", l.Counter.Name, err))
		return
	}
	l.Trip = trip
}

// guarded reports whether the loop is entered only when init OP bound
// holds: the preheader ends in that very test.
func (fa *funcAnalysis) guarded(l *Loop, init ssa.Value, t counterTest) bool {
	var pre *ssa.BasicBlock
	for _, p := range l.Header.Preds {
		if !l.Contains(p) {
			if pre != nil && pre != p {
				return false
			}
			pre = p
		}
	}
	if pre == nil {
		return false
	}
	ifi, ok := lastInstr(pre).(*ssa.If)
	if !ok {
		return false
	}
	cmp, ok := ifi.Cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	op := cmp.Op
	if pre.Succs[1] == l.Header {
		op = negate(op)
	}
	return op == t.op && sameValue(cmp.X, init) && sameValue(cmp.Y, t.bound) ||
		swap(op) == t.op && sameValue(cmp.Y, init) && sameValue(cmp.X, t.bound)
}

// counterTest recognises an exit whose test is IV+off OP bound with the
// bound defined outside the loop.
func (fa *funcAnalysis) counterTest(l *Loop, e exit) (counterTest, bool) {
	ifi, ok := lastInstr(e.from).(*ssa.If)
	if !ok {
		return counterTest{}, false
	}
	cmp, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || !isInteger(cmp.X.Type()) {
		return counterTest{}, false
	}
	op := cmp.Op
	switch op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.NEQ, token.EQL:
	default:
		return counterTest{}, false
	}
	if e.from.Succs[0] == e.to {
		// The loop goes on along the false branch.
		op = negate(op)
	}
	for _, iv := range l.IVs {
		if off, ok := offsetOf(cmp.X, iv.Phi); ok && fa.invariant(l, cmp.Y) {
			return counterTest{iv, off, op, cmp.Y}, true
		}
		if off, ok := offsetOf(cmp.Y, iv.Phi); ok && fa.invariant(l, cmp.X) {
			return counterTest{iv, off, swap(op), cmp.X}, true
		}
	}
	return counterTest{}, false
}

// noteExit records why an exit other than the counter test makes the trip
// count an upper bound or data-dependent.
func (fa *funcAnalysis) noteExit(l *Loop, e exit, counted bool) {
	what := "exit"
	if returns(e.to) {
		what = "return"
		for p := l; p != nil; p = p.Parent {
			if e.to == normalExit(p) {
				what = "exit"
			}
		}
	}
	cond := controllingCond(l, e.from)
	if it, ok := rangeIter(cond); ok {
		fa.rangeIterCount(l, it)
		return
	}
	if cond != nil && variant(l, cond, fa, map[ssa.Value]bool{}) {
		l.DataDependent = true
		l.Notes = append(l.Notes, fmt.Sprintf("%s at %s depends on values computed in the loop", what, fa.pos(e.from)))
		return
	}
	if counted {
		l.Notes = append(l.Notes, fmt.Sprintf("%s at %s: the trip count is an upper bound", what, fa.pos(e.from)))
	} else {
		l.Notes = append(l.Notes, fmt.Sprintf("%s at %s", what, fa.pos(e.from)))
	}
}

// rangeIterCount handles range over strings, maps and channels, whose exit
// test is the ok result of the iterator's next step.
func (fa *funcAnalysis) rangeIterCount(l *Loop, x ssa.Value) {
	switch x.Type().Underlying().(type) {
	case *types.Basic: // string
		ctx := &exprCtx{fa: fa, loop: l}
		if fa.invariant(l, x) {
			ctx.noteInEnclosing(x)
			l.Trip = &symbolic.Sym{Name: "len(" + fa.render(x) + ")", Kind: symbolic.Len, Of: x}
			l.UpperBound = true
			l.Notes = append(l.Notes, "range over a string counts runes: len is an upper bound")
			if len(ctx.dataDep) > 0 {
				l.DataDependent = true
				l.Notes = append(l.Notes, ctx.dataDep...)
			}
			return
		}
	case *types.Map:
		l.DataDependent = true
		l.Notes = append(l.Notes, "range over a map: len(m) unless the body inserts or deletes")
		return
	}
	l.DataDependent = true
	l.Notes = append(l.Notes, "range over "+x.Type().String()+": the count is decided at run time")
}

// rangeIter recognises the ok result of `next` on a range iterator and
// returns the ranged-over value.
func rangeIter(cond ssa.Value) (ssa.Value, bool) {
	ex, ok := cond.(*ssa.Extract)
	if !ok || ex.Index != 0 {
		return nil, false
	}
	next, ok := ex.Tuple.(*ssa.Next)
	if !ok {
		return nil, false
	}
	r, ok := next.Iter.(*ssa.Range)
	if !ok {
		return nil, false
	}
	return r.X, true
}

// controllingCond returns the condition that decides whether control takes
// the exit from b: b's own If, else that of the nearest dominating block of
// the loop that ends in an If.
func controllingCond(l *Loop, b *ssa.BasicBlock) ssa.Value {
	for x := b; x != nil && l.Contains(x); x = x.Idom() {
		if ifi, ok := lastInstr(x).(*ssa.If); ok {
			return ifi.Cond
		}
	}
	return nil
}

// variant reports whether v changes from one iteration to the next in a way
// that is not a function of the induction variables: it is computed in the
// loop from loads, calls or non-induction phis.
func variant(l *Loop, v ssa.Value, fa *funcAnalysis, seen map[ssa.Value]bool) bool {
	b := blockOf(v)
	if b == nil || !l.Contains(b) || seen[v] {
		return false
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Phi:
		return fa.ivs[v] == nil
	case *ssa.BinOp:
		return variant(l, v.X, fa, seen) || variant(l, v.Y, fa, seen)
	case *ssa.UnOp:
		if v.Op == token.MUL || v.Op == token.ARROW {
			return true
		}
		return variant(l, v.X, fa, seen)
	case *ssa.Convert:
		return variant(l, v.X, fa, seen)
	case *ssa.ChangeType:
		return variant(l, v.X, fa, seen)
	}
	return true
}

func loopExits(l *Loop) []exit {
	var out []exit
	for _, b := range l.Blocks {
		for _, s := range b.Succs {
			if !l.Contains(s) && !panics(s) {
				out = append(out, exit{b, s})
			}
		}
	}
	return out
}

func isLatch(l *Loop, b *ssa.BasicBlock) bool {
	for _, s := range b.Succs {
		if s == l.Header {
			return true
		}
	}
	return false
}

// panics reports whether b ends the program: it ends in a panic. Exits to
// such blocks do not bound the loop.
func panics(b *ssa.BasicBlock) bool {
	_, ok := lastInstr(b).(*ssa.Panic)
	return ok
}

// normalExit is where the header's exit test leads, nil if the header does
// not exit.
func normalExit(l *Loop) *ssa.BasicBlock {
	for _, s := range l.Header.Succs {
		if !l.Contains(s) {
			return s
		}
	}
	return nil
}

// returns reports whether b leads straight to a return.
func returns(b *ssa.BasicBlock) bool {
	for i := 0; i < 4 && b != nil; i++ {
		switch lastInstr(b).(type) {
		case *ssa.Return:
			return true
		case *ssa.Jump:
			b = b.Succs[0]
		default:
			return false
		}
	}
	return false
}

func lastInstr(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}

func negate(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GEQ
	case token.LEQ:
		return token.GTR
	case token.GTR:
		return token.LEQ
	case token.GEQ:
		return token.LSS
	case token.EQL:
		return token.NEQ
	case token.NEQ:
		return token.EQL
	}
	return op
}

func swap(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}
