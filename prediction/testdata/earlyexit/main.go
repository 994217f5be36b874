// Command earlyexit is a test program for predictions at other arguments
// than the profile's: its step loop runs -steps steps unless a reduced
// value (unknown to the interpreter) turns negative, which it never does,
// and it leaves by an if with a break, not by its condition.
package main

import (
	"flag"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	steps := flag.Int("steps", 30, "steps to run")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		x, g := []float64{1}, []float64{1}
		for s := 0; s < *steps; s++ {
			for i := 0; i < 1000; i++ {
				x[0] = x[0]*0.999 + 1
			}
			mpi.Allreduce(c, x, g, mpi.Max)
			if g[0] < 0 {
				break
			}
		}
	})
}
