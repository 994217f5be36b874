package prediction

import (
	"sort"

	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/report"
)

func sortAssumptions(as []interpreter.Assumption) {
	sort.Slice(as, func(i, j int) bool {
		if as[i].Pos != as[j].Pos {
			return as[i].Pos < as[j].Pos
		}
		return as[i].What < as[j].What
	})
}

// caveats are a prediction's assumptions and notes as its report carries
// them.
func caveats(as []interpreter.Assumption, notes []string) report.Caveats {
	c := report.Caveats{Notes: notes}
	for _, a := range as {
		c.Assumptions = append(c.Assumptions, report.Assumption{Pos: a.Pos, What: a.What})
	}
	return c
}

// assumptionSet collects the assumptions of several simulations, each
// once.
type assumptionSet map[interpreter.Assumption]bool

func (s assumptionSet) add(as []interpreter.Assumption) {
	for _, a := range as {
		s[a] = true
	}
}

// sorted lists the set's assumptions in order of position.
func (s assumptionSet) sorted() []interpreter.Assumption {
	out := make([]interpreter.Assumption, 0, len(s))
	for a := range s {
		out = append(out, a)
	}
	sortAssumptions(out)
	return out
}
