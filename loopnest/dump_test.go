package loopnest

import (
	"fmt"
	"testing"

	"github.com/parpredict/parpredict/model"
)

func TestDump(t *testing.T) {
	for _, dir := range []string{"testdata/forms", "../examples/heat", "../examples/matmul", "../examples/mandelbrot", "../examples/cg", "../examples/transpose", "../examples/pingpong"} {
		p, err := Load(model.Config{Dir: dir}, []string{"."}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range p.Funcs {
			own := FindLoops(f.Fn)
			for i, l := range f.Loops {
				fmt.Println(l.ID, l.Depth, l.Trip, "ub", l.UpperBound, "dd", l.DataDependent, "rs", l.RankSize, l.Notes, l.Reduction.Reducible, l.Reduction.Reasons, siteNames(l.MPI))
				_ = i
			}
			if len(own) != len(f.Loops) {
				fmt.Println("MISMATCH count", f.Fn)
			}
			for _, s := range own {
				found := false
				for _, l := range f.Loops {
					found = found || l.ID == s.ID
				}
				if !found {
					fmt.Println("MISMATCH id", s.ID)
				}
			}
		}
	}
}
