// Command compoundbreak iterates until a residual the interpreter cannot
// know falls below -tol or -maxit steps, whichever comes first, in a
// `for {}` whose compound exit test is followed by more code
// (TestCompoundBreakLoopIsCounted).
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 2000, "elements per rank")
	tol := flag.Float64("tol", 1e-9, "stop when the residual is below tol")
	maxit := flag.Int("maxit", 50, "iteration limit")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		u := make([]float64, *n)
		for i := range u {
			u[i] = float64(i % 7)
		}
		it := 0
		in, out := []float64{0}, []float64{0}
		for {
			d := 0.0
			for i := range u {
				u[i] *= 0.99
				d += u[i]
			}
			in[0] = d
			mpi.Allreduce(c, in, out, mpi.Sum)
			it++
			if out[0] < *tol || it >= *maxit {
				break
			}
		}
		if c.Rank() == 0 {
			fmt.Println("iterations:", it)
		}
	})
}
