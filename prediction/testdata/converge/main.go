// Command converge shrinks a random value until it is small: how many
// steps that takes depends on the data, which a prediction cannot know
// and takes from the profile (an assumption it lists).
package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	mpi.Main(func(c *mpi.Comm) {
		r := rand.New(rand.NewPCG(1, uint64(c.Rank())))
		x := 1 + r.Float64()*1e6
		steps := 0
		c.BeginInterval(1)
		for x > 1e-6 {
			x *= 0.5 + 0.4*r.Float64()
			steps++
		}
		c.EndInterval(1)
		buf := []float64{float64(steps)}
		mpi.Allreduce(c, buf, buf, mpi.Max)
		if c.Rank() == 0 {
			fmt.Println("converge: at most", buf[0], "steps")
		}
	})
}
