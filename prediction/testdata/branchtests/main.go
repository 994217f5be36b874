// Command branchtests takes, in each step, branches on a value the
// interpreter cannot know (x, which a reduced loop computes): an if that
// continues the loop (so the loop is no structured region), a switch
// without a tag, an if with a compound condition, a switch on a value
// computed from x and a compound condition assigned to a variable. x runs through
// 0, 0.3, 0.6, 0.9, 0.2, 0.5, 0.8, 0.1, 0.4, 0.7 in every ten steps, so
// each test's share of true outcomes is known (TestBranchTestsFollowTheProfile).
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	steps := flag.Int("steps", 100, "steps")
	n := flag.Int("n", 1000, "elements computed per step")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		a := make([]float64, *n)
		in, out := []float64{1}, []float64{0}
		light := 0
		for s := 0; s < *steps; s++ {
			for i := range a {
				a[i] = float64((i*7+s*3)%10) / 10
			}
			x := a[0]
			if x < 0.2 {
				c.Barrier()
				continue
			}
			switch {
			case x < 0.7:
				light++
			case x < 0.9:
				mpi.Allreduce(c, in, out, mpi.Sum)
			default:
				c.Barrier()
				c.Barrier()
			}
			if x >= 0.3 && x < 0.6 {
				c.Barrier()
			}
			switch int(x*10+0.5) % 4 {
			case 0, 1:
				light++
			case 2:
				mpi.Allreduce(c, in, out, mpi.Sum)
			}
			// A compound condition whose value is used: go/ssa branches
			// on its left operand only.
			heavy := x > 0.75 && x < 0.95
			if heavy {
				light--
			}
		}
		if c.Rank() == 0 {
			fmt.Println("light steps:", light)
		}
	})
}
