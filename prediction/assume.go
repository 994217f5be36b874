package prediction

import (
	"sort"

	"github.com/parpredict/parpredict/interpreter"
)

func sortAssumptions(as []interpreter.Assumption) {
	sort.Slice(as, func(i, j int) bool {
		if as[i].Pos != as[j].Pos {
			return as[i].Pos < as[j].Pos
		}
		return as[i].What < as[j].What
	})
}
