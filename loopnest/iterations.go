package loopnest

import (
	"errors"
	"fmt"
	"slices"

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
	return IterationsGuarded(root, env, true, nil)
}

// IterationsOwn is Iterations without the callee copies: the nest's own
// loops only.
func IterationsOwn(root *Loop, env symbolic.Env) (map[*Loop]int64, error) {
	return IterationsGuarded(root, env, false, nil)
}

// IterationsGuarded is Iterations (IterationsOwn without callees) that
// counts a loop with guards for which trust holds only in the iterations
// of the loop around it where they hold. A guard that cannot be evaluated
// there (a value the environment lacks, too many iterations to count) is
// taken to hold, as without guards.
func IterationsGuarded(root *Loop, env symbolic.Env, callees bool, trust func(*Guard) bool) (map[*Loop]int64, error) {
	totals := map[*Loop]int64{}
	c := counting{totals: totals, callees: callees, trust: trust}
	if err := c.count(root, env, 1); err != nil {
		return nil, err
	}
	return totals, nil
}

type counting struct {
	totals  map[*Loop]int64
	callees bool
	trust   func(*Guard) bool
}

// guards are l's guards that the counting trusts.
func (c *counting) guards(l *Loop) []Guard {
	if c.trust == nil || len(l.Guards) == 0 {
		return nil
	}
	var out []Guard
	for i := range l.Guards {
		if c.trust(&l.Guards[i]) {
			out = append(out, l.Guards[i])
		}
	}
	return out
}

// count adds mult entries' worth of l's iterations to totals.
func (c *counting) count(l *Loop, env symbolic.Env, mult int64) error {
	if l.Trip == nil {
		return nil
	}
	n, err := l.Trip.Eval(env)
	if err != nil {
		return fmt.Errorf("loopnest: trip count of %s: %w", l.ID, err)
	}
	n = max(n, 0)
	c.totals[l] += mult * n
	children := l.Children(c.callees)
	if len(children) == 0 || n == 0 {
		return nil
	}
	guards := make([][]Guard, len(children))
	for i, in := range children {
		guards[i] = c.guards(in)
	}
	if !innerUsesIVs(l) {
		for i, in := range children {
			runs := n
			if len(guards[i]) > 0 {
				runs = guardedRuns(l, guards[i], env, n)
			}
			if err := c.count(in, env, mult*runs); err != nil {
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
	bind := bindIVs(l, env)
	for i := range guards {
		guards[i] = bind.usable(guards[i])
	}
	vals, guardVals := symbolic.Values{}, symbolic.Values{}
	inner, guardEnv := symbolic.Chain{vals, env}, symbolic.Chain{guardVals, env}
	// A geometric variable that overflows has no value from then on: a
	// count that needs it fails to evaluate.
	cur, overflowed := slices.Clone(starts), make([]bool, len(l.IVs))
	for k := range n {
		for i, iv := range l.IVs {
			if overflowed[i] {
				delete(vals, ssa.Value(iv.Phi))
				continue
			}
			vals[ssa.Value(iv.Phi)] = cur[i]
			var ok bool
			cur[i], ok = iv.Next(cur[i], iv.Step)
			overflowed[i] = !ok
		}
		bind.set(guardVals, k)
		for i, in := range children {
			if len(guards[i]) > 0 && !holdAll(guards[i], guardEnv) {
				continue
			}
			if err := c.count(in, inner, mult); err != nil {
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
