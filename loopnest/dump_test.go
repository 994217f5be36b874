package loopnest

import (
	"fmt"
	"testing"
)

func TestDump(t *testing.T) {
	p, err := Load("testdata/forms", []string{"."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Funcs {
		for _, l := range f.Loops {
			fmt.Println(l.ID, l.Depth, l.Trip, "ub", l.UpperBound, "dd", l.DataDependent, "rs", l.RankSize, l.Notes, l.Reduction.Reducible, l.Reduction.Reasons)
		}
	}
}
