package loopnest

import (
	"go/token"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"github.com/parpredict/parpredict/model"
	"golang.org/x/tools/go/ssa"
)

// Func is the loop nest tree of one function.
type Func struct {
	Fn    *ssa.Function
	Model *model.Func // nil without a model
	Roots []*Loop     // outermost loops, in source order
	Loops []*Loop     // every loop, parents before children, in source order
	// calls are the calls of program functions the function makes on
	// every call, outside its loops (findBodyCalls).
	calls []*CallSite
}

// Loop is one loop of a nest, with what the analysis found about it.
type Loop struct {
	ID     string // the model's region ID, or one in the same format
	Pos    token.Pos
	Func   *ssa.Function
	Header *ssa.BasicBlock
	Blocks []*ssa.BasicBlock // the natural loop: blocks that reach the header again
	// Arms are the other blocks of the model's loop region: code inside the
	// loop statement that leaves it (a return). Their calls count as the
	// loop's; their edges are the loop's exits.
	Arms   []*ssa.BasicBlock
	Region *model.Region // the model's loop region; nil without a model
	Parent *Loop
	Inner  []*Loop
	Depth  int // 1 for an outermost loop

	// IVs are the loop's induction variables: header phis that start from a
	// value defined outside the loop and step by a constant.
	IVs []*IV
	// Counter is the induction variable the exit test compares, nil if none.
	Counter *IV
	// First is the value the exit test's variable has in the first
	// iteration: Counter.Init, or Counter.Init+1 for go/ssa's range index,
	// which starts at -1 and is tested after its increment.
	First symbolic.Expr
	// Trip is the number of iterations per entry of the loop (times the
	// body runs), nil when unknown. With UpperBound set it is an upper bound.
	Trip symbolic.Expr
	// BottomTest is set when the exit test follows the body (Go's rotated
	// range-over-int loops): the header runs Trip times rather than Trip+1.
	BottomTest bool
	// UpperBound is set when the loop can also leave early (break, return,
	// goto, labeled break or continue of an outer loop).
	UpperBound bool
	// DataDependent is set when the number of iterations depends on values
	// computed inside the loop or loaded from memory inside an enclosing
	// loop (a convergence test, a sparse row length).
	DataDependent bool
	// RankSize is set when the trip count depends on Rank() or Size(): the
	// loop's iterations are distributed over the ranks.
	RankSize bool
	// OnRank is set when the trip count may depend on Rank() itself, not
	// only on Size(): a count of the rank's share.
	OnRank bool
	// Index is the loop's global iteration index when its counter starts at
	// the same constant on every rank and the body computes the iteration
	// it works on from it (y := first + k*stride): Base + counter*Scale
	// with Base and Scale fixed at entry. Nil otherwise.
	Index *Index
	// Notes explain the flags, with source positions.
	Notes []string

	// MPI lists the communication calls inside the loop, inner loops and
	// called functions of the program included.
	MPI []Site
	// Calls lists the other calls inside the loop (inner loops included),
	// each marked pure or not.
	Calls []Site
	// Effects lists what else makes skipping the loop observable: go and
	// defer statements, channel operations, stores to package variables.
	Effects []Site

	Reduction Decision
	// Rotation are the header phis that only trade values among
	// themselves (double buffers swapped each iteration), nil if none:
	// when the loop is reduced, the interpreter sets them from the trip
	// count instead of forgetting them.
	Rotation *Rotation

	// Callees are the loops of program functions called from this loop's
	// own code (not from its inner loops), restated in this function's
	// terms: copies of each callee's root loops whose counting expressions
	// use the call's arguments, so that a reduced nest's iterations
	// include the work of the kernels it calls (inlineCallees). Set on
	// loops of reduced nests only; Walk does not visit them, WalkAll does.
	Callees []*Loop
	// Inlined is the call a callee copy stands for; nil for a function's
	// own loops.
	Inlined *CallSite
	// Guards are the tests on the rank or rank count under which the loop
	// (a copy: the call it stands for) runs in an iteration of the loop
	// around it; a counting that trusts them counts it only where they
	// hold (IterationsGuarded).
	Guards []Guard

	calls []*CallSite // calls of program functions from the loop's own blocks (a copy's: its original's)
}

// CallSite is a call of a program function from a loop's own code, with
// its arguments as counting expressions of the caller.
type CallSite struct {
	Call   *ssa.Call
	Callee *ssa.Function
	In     *Loop // the loop whose own code makes the call (a copy for nested inlining)
	// Args[i] is argument i when it is an integer with an expression;
	// Lens[i] its length when it is a slice or string with one; nil
	// otherwise.
	Args, Lens []symbolic.Expr
	// Guards are the tests on the rank or rank count under which the call
	// is made in an iteration of In (see Loop.Guards).
	Guards []Guard
}

// IV is an induction variable: Phi takes Init, Init+Step, Init+2*Step, ...
type IV struct {
	Phi  *ssa.Phi
	Name string
	Init symbolic.Expr // nil when the initial value has no expression
	Step int64         // 0 when the step is symbolic
	// StepExpr is a symbolic step known to be positive (i += size), nil
	// for constant steps.
	StepExpr symbolic.Expr
	// Geom, when its Op is set, makes the variable geometric: each
	// iteration multiplies it by a constant (half *= 2, i <<= 1) or
	// divides or shifts it (s /= 2, s >>= 1); Step is then 0.
	Geom symbolic.Update
}

// Geometric reports whether the variable steps by multiplication or
// division (Geom).
func (iv *IV) Geometric() bool { return iv.Geom.Op != 0 }

// Next is the variable's value in the iteration after one where it is v,
// given its evaluated additive step; false when a geometric step
// overflows.
func (iv *IV) Next(v, step int64) (int64, bool) {
	if iv.Geometric() {
		return iv.Geom.Apply(v)
	}
	return v + step, true
}

// StepString prints the step.
func (iv *IV) StepString() string {
	if iv.StepExpr != nil {
		return iv.StepExpr.String()
	}
	if iv.Geometric() {
		return iv.Geom.String()
	}
	return symbolic.Const(iv.Step).String()
}

// Site is a call or other effect at a source position.
type Site struct {
	Name string
	Pos  token.Pos
	// Pure is set for calls of registry functions and of program functions
	// that, transitively, only do what registry functions do.
	Pure bool
	// Via names the program function the site was found in, for sites found
	// in callees ("" for the loop's own code).
	Via string
}

// Decision is the reduction plan's verdict on a loop.
type Decision struct {
	// Reducible is set when the loop, with its inner loops, can be replaced
	// by a reduced block whose time is a function of its trip counts.
	Reducible bool
	// Nest is the root of the reduced nest the loop is part of (the loop
	// itself for a nest root); nil when the loop is not reduced.
	Nest *Loop
	// Reasons say why the loop is not reducible.
	Reasons []string
	// Steers is set when a result of the loop steers what follows (the
	// last of the Reasons says how).
	Steers bool
}

// SteersOnly reports whether the one reason is that a result of the
// loop steers what follows (a branch, an MPI call, an integer
// returned): the loop runs step by step so that what it computes stays
// known, which is worth nothing once that is unknown.
func (d Decision) SteersOnly() bool { return d.Steers && len(d.Reasons) == 1 }

// Contains reports whether b is a block of the loop.
func (l *Loop) Contains(b *ssa.BasicBlock) bool { return contains(l.Blocks, b) }

// Walk calls f for l and every loop inside it, parents first.
func (l *Loop) Walk(f func(*Loop)) {
	f(l)
	for _, c := range l.Inner {
		c.Walk(f)
	}
}

// Children are the loops directly inside l, and with callees its callee
// copies after them.
func (l *Loop) Children(callees bool) []*Loop {
	if !callees || len(l.Callees) == 0 {
		return l.Inner
	}
	return append(append([]*Loop(nil), l.Inner...), l.Callees...)
}

// WalkAll is Walk that also visits the callee copies (Callees) of every
// loop, after its inner loops.
func (l *Loop) WalkAll(f func(*Loop)) {
	f(l)
	for _, c := range l.Inner {
		c.WalkAll(f)
	}
	for _, c := range l.Callees {
		c.WalkAll(f)
	}
}

// countingExprs calls f with every counting expression (First, Trip, the
// induction variables' starts and steps, Index) of l and the loops inside
// it, callee copies included; nil ones too.
func (l *Loop) countingExprs(f func(symbolic.Expr)) {
	l.WalkAll(func(c *Loop) {
		f(c.First)
		f(c.Trip)
		for _, iv := range c.IVs {
			f(iv.Init)
			f(iv.StepExpr)
		}
		if c.Index != nil {
			f(c.Index.Base)
			f(c.Index.Scale)
		}
	})
}

// BoundValues returns the SSA values that counting the iterations of the
// nest rooted at l may look up: those the symbols of the counting
// expressions (First, Trip, the induction variables' starts and steps,
// Index) and guards of l and every loop inside it stand for, and, through their
// definitions, the values those are computed from. An evaluator that
// binds the nest's symbols needs exactly these at the nest's entry.
// The order is that of first appearance, for determinism; the slice is
// empty, not nil, when the counts are constants.
func (l *Loop) BoundValues() []ssa.Value {
	out := []ssa.Value{}
	seen := map[ssa.Value]bool{}
	visited := map[*symbolic.Sym]bool{}
	var add func(e symbolic.Expr)
	add = func(e symbolic.Expr) {
		for _, s := range symbolic.Symbols(e) {
			if visited[s] {
				continue
			}
			visited[s] = true
			if s.Value != nil && !seen[s.Value] && s.Value.Parent() == l.Func {
				// A callee copy's own induction variables are bound
				// by the counting, never by the evaluator.
				seen[s.Value] = true
				out = append(out, s.Value)
			}
			if s.Kind == symbolic.Rank || s.Kind == symbolic.Size {
				// The communicator of a Rank or Size called in the
				// nest, which the evaluator asks about instead.
				if c := CommOf(s.Value); c != nil && !seen[c] && c.Parent() == l.Func {
					seen[c] = true
					out = append(out, c)
				}
			}
			add(s.Def)
			if m := s.Mem; m != nil {
				_, global := m.Base.(*ssa.Global)
				if !seen[m.Base] && (global || m.Base.Parent() == l.Func) {
					seen[m.Base] = true
					out = append(out, m.Base)
				}
				for _, st := range m.Steps {
					add(st.Index)
				}
			}
		}
	}
	l.countingExprs(add)
	l.WalkAll(func(c *Loop) {
		for _, g := range c.Guards {
			add(g.X)
			add(g.Y)
		}
	})
	return out
}
