// Command copies moves a rank's arrays with copy once per step: the
// profiler times and counts each copy statement (elements copied), and
// takes its time out of the loop around it. A copy inside a loop that
// calls only builtins (packing) gets no probe.
package main

import (
	"flag"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 4096, "elements")
	steps := flag.Int("steps", 10, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		u := make([]float64, *n)
		v := make([]float64, *n)
		x, y := []float64{0}, []float64{0}
		for s := 0; s < *steps; s++ {
			copy(v, u)
			copy(u[1:], v)
			for k := 0; k < 4; k++ {
				copy(v[k*8:], u[:8])
			}
			mpi.Allreduce(c, x, y, mpi.Sum)
		}
	})
}
