// Command shapes is a test program whose heavy loop calls an interface
// method: each rank sums the areas of its block of shapes, circles and
// rectangles behind a Shape, every step. The methods only compute, so
// the loop is reduced and costed from the profile whatever -n is.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

// Shape is what the kernel calls through.
type Shape interface{ Area() float64 }

type circle struct{ r float64 }

func (c circle) Area() float64 { return 3.14159 * c.r * c.r }

type rect struct{ w, h float64 }

func (r *rect) Area() float64 { return r.w * r.h }

// areas sums the areas of s, weighted by the step, reps times over.
func areas(s []Shape, reps int) float64 {
	t := 0.0
	for k := 0; k < reps; k++ {
		for _, x := range s {
			t += x.Area() * float64(k+1)
		}
	}
	return t
}

func main() {
	n := flag.Int("n", 100000, "shapes")
	steps := flag.Int("steps", 5, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		lo, hi := c.Rank()**n/c.Size(), (c.Rank()+1)**n/c.Size()
		mine := make([]Shape, hi-lo)
		for i := range mine {
			if (lo+i)%2 == 0 {
				mine[i] = circle{float64((lo + i) % 7)}
			} else {
				mine[i] = &rect{1, float64((lo + i) % 5)}
			}
		}
		sum, total := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for s := 0; s < *steps; s++ {
			sum[0] = areas(mine, 20)
			mpi.Allreduce(c, sum, total, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("shapes: n=%d ranks=%d total=%.6g\n", *n, c.Size(), total[0])
		}
	})
}
