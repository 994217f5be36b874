package prediction

import (
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/parpredict/parpredict/interpreter"
)

// slowSteps is the number of SSA instructions of one configuration's
// simulation from which the prediction says where they went: tens of
// nanoseconds each, a second or more of simulation, mostly loops that run
// instruction by instruction because they are not reduced.
var slowSteps int64 = 20_000_000

// hotShare is the share of a simulation's instructions from which a
// function is named.
const hotShare = 0.2

// hotSpotsNote says which functions took most of the interpreter's
// instructions in a configuration of p ranks, and why their loops are
// not reduced nests; "" below slowSteps.
func (o *Oracle) hotSpotsNote(p int, steps int64, hot []interpreter.HotSpot) string {
	if steps < slowSteps || len(hot) == 0 {
		return ""
	}
	var parts []string
	for _, h := range hot {
		parts = append(parts, fmt.Sprintf("%.0f %% in %s", 100*h.Share, o.stepwiseIn(h.Fn)))
	}
	return fmt.Sprintf("the interpreter ran %.3g SSA instructions at P = %d, loops that are not reduced running step by step: %s (predict loops says more)",
		float64(steps), p, strings.Join(parts, "; "))
}

// stepwiseIn names fn as region IDs do, with its position and why its
// loops are not reduced: where a rank runs step by step.
func (o *Oracle) stepwiseIn(fn *ssa.Function) string {
	where := fn.String()
	if f := o.user[fn]; f != nil {
		where = f.Name
	}
	if pos := fn.Prog.Fset.Position(fn.Pos()); pos.IsValid() {
		where += fmt.Sprintf(" (%s:%d)", filepath.Base(pos.Filename), pos.Line)
	}
	if why := o.notReduced(interpreter.HotSpot{Fn: fn}); why != "" {
		where += ", whose " + why
	}
	return where
}

// notReduced names the loops of the hot spot's function that are not
// reduced, with the first reason of each; "" if it has none.
func (o *Oracle) notReduced(h interpreter.HotSpot) string {
	if o.lp == nil {
		return ""
	}
	for _, f := range o.lp.Funcs {
		if f.Fn != h.Fn {
			continue
		}
		var loops []string
		for _, l := range f.Loops {
			if l.Reduction.Nest != nil {
				continue
			}
			why := "not reduced"
			if len(l.Reduction.Reasons) > 0 {
				why = l.Reduction.Reasons[0]
			}
			loops = append(loops, fmt.Sprintf("loop %s is not reduced (%s)", l.ID, why))
		}
		return strings.Join(loops, ", ")
	}
	return ""
}

// slowTeller is implemented by the oracle and its views: a simulation
// tells it when a rank has run long (interpreter.ExecOptions.Slow).
type slowTeller interface {
	slowSimulation(p int, maxSteps int64) func(rank int, steps int64, in *ssa.Function)
}

// slowSimulation returns what a simulation of P ranks calls when a rank
// has run interpreter.SlowSteps instructions: once per prediction, it
// says so on the progress log, with the function the rank is in and why
// its loops are not reduced, so that a user waiting knows why.
func (o *Oracle) slowSimulation(p int, maxSteps int64) func(rank int, steps int64, in *ssa.Function) {
	if o.logf == nil {
		return nil
	}
	if maxSteps == 0 {
		maxSteps = 2e9
	}
	return func(rank int, steps int64, in *ssa.Function) {
		if o.slowSaid.Swap(true) {
			return
		}
		o.logf("P = %d: rank %d has run %.3g SSA instructions step by step, now in %s: this prediction may take minutes, and gives up at %.3g per rank (--max-steps)",
			p, rank, float64(steps), o.stepwiseIn(in), float64(maxSteps))
	}
}
