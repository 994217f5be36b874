package loopnest

import (
	"testing"

	"github.com/parpredict/parpredict/loopnest/symbolic"
	"github.com/parpredict/parpredict/model"
)

// BenchmarkFromModel measures the loop analysis of an example program whose
// model is already built.
func BenchmarkFromModel(b *testing.B) {
	for _, ex := range []string{"heat", "cg"} {
		b.Run(ex, func(b *testing.B) {
			mp, err := model.Load(model.Config{Dir: "../examples/" + ex}, ".")
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := FromModel(mp, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTripEval measures evaluating a reduced nest's trip counts for a
// rank, as the interpreter does at every entry of the nest.
func BenchmarkTripEval(b *testing.B) {
	p, err := Load(model.Config{Dir: "../examples/heat"}, []string{"."}, nil)
	if err != nil {
		b.Fatal(err)
	}
	var nest *Loop
	for _, l := range p.Nests() {
		if funcName(l.Func) == "main.jacobiStep" {
			nest = l
		}
	}
	if nest == nil {
		b.Fatal("no jacobiStep nest")
	}
	env := symbolic.Names{"rows": 500, "n": 2000}
	for b.Loop() {
		if _, err := Iterations(nest, env); err != nil {
			b.Fatal(err)
		}
	}
}
