package loopnest

import (
	"errors"
	"fmt"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"golang.org/x/tools/go/ssa"
)

// MaxEnumerated bounds the outer iterations Iterations enumerates for a
// nest whose inner trip counts depend on outer induction variables.
const MaxEnumerated = 1 << 22

// ErrTooManyIterations is returned when a triangular nest would need more
// than MaxEnumerated outer iterations to count exactly.
var ErrTooManyIterations = errors.New("loopnest: nest too large to count exactly")

// Iterations returns, for one entry of the nest rooted at root, the total
// number of iterations of each counted loop in it, evaluated under env. An
// inner loop whose trip count uses an enclosing loop's induction variable
// (j < i) is counted by enumerating the enclosing loop's values, so the
// totals are exact. Loops without a trip count (data-dependent inner
// loops) are left out, as are the loops inside them: their time belongs to
// the iterations of the nearest counted loop above them.
//
// The callee copies of the nest's loops (Callees) are counted too, as if
// each call ran once per iteration of the loop that makes it.
func Iterations(root *Loop, env symbolic.Env) (map[*Loop]int64, error) {
	totals := map[*Loop]int64{}
	if err := count(root, env, 1, totals, true); err != nil {
		return nil, err
	}
	return totals, nil
}

// IterationsOwn is Iterations without the callee copies: the nest's own
// loops only.
func IterationsOwn(root *Loop, env symbolic.Env) (map[*Loop]int64, error) {
	totals := map[*Loop]int64{}
	if err := count(root, env, 1, totals, false); err != nil {
		return nil, err
	}
	return totals, nil
}

// count adds mult entries' worth of l's iterations to totals.
func count(l *Loop, env symbolic.Env, mult int64, totals map[*Loop]int64, callees bool) error {
	if l.Trip == nil {
		return nil
	}
	n, err := l.Trip.Eval(env)
	if err != nil {
		return fmt.Errorf("loopnest: trip count of %s: %w", l.ID, err)
	}
	n = max(n, 0)
	totals[l] += mult * n
	children := l.Children(callees)
	if len(children) == 0 || n == 0 {
		return nil
	}
	if !innerUsesIVs(l) {
		for _, in := range children {
			if err := count(in, env, mult*n, totals, callees); err != nil {
				return err
			}
		}
		return nil
	}
	if n > MaxEnumerated {
		return fmt.Errorf("%w: %s runs %d times", ErrTooManyIterations, l.ID, n)
	}
	// Bind l's induction variables to each of their values in turn.
	starts := make([]int64, len(l.IVs))
	for i, iv := range l.IVs {
		if iv.Init == nil || iv.StepExpr != nil {
			continue
		}
		if starts[i], err = iv.Init.Eval(env); err != nil {
			return fmt.Errorf("loopnest: initial value of %s in %s: %w", iv.Name, l.ID, err)
		}
	}
	vals := symbolic.Values{}
	inner := symbolic.Chain{vals, env}
	for k := range n {
		for i, iv := range l.IVs {
			vals[ssa.Value(iv.Phi)] = starts[i] + k*iv.Step
		}
		for _, in := range children {
			if err := count(in, inner, mult, totals, callees); err != nil {
				return err
			}
		}
	}
	return nil
}

// innerUsesIVs reports whether a trip count of a loop inside l, or the
// start of a callee copy's induction variable, refers to one of l's
// induction variables.
func innerUsesIVs(l *Loop) bool {
	phis := map[ssa.Value]bool{}
	for _, iv := range l.IVs {
		phis[iv.Phi] = true
	}
	uses := func(e symbolic.Expr) bool {
		return symbolic.Uses(e, func(s *symbolic.Sym) bool { return phis[s.Value] })
	}
	found := false
	visit := func(x *Loop) {
		found = found || uses(x.Trip)
		if x.Inlined != nil {
			for _, iv := range x.IVs {
				found = found || uses(iv.Init)
			}
		}
	}
	for _, in := range l.Children(true) {
		in.WalkAll(visit)
	}
	return found
}
