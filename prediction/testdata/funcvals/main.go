// Command funcvals calls kernels through a function value and an
// interface in loops that are reduced: what those calls may write (the
// closure's captured counter, the shapes behind the interface) must
// become unknown after the loops, not keep the values from before.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

// forEach calls f on every element.
func forEach(xs []float64, f func(float64)) {
	for _, x := range xs {
		f(x)
	}
}

type scaler interface{ scale(k float64) }

type box struct{ w float64 }

func (b *box) scale(k float64) { b.w *= k }

// scaleAll scales every shape.
func scaleAll(s []scaler, k float64) {
	for i := range s {
		s[i].scale(k)
	}
}

func main() {
	n := flag.Int("n", 1000, "elements")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		xs := make([]float64, *n)
		for i := range xs {
			xs[i] = float64(i%3) - 1
		}
		positive := 0
		forEach(xs, func(x float64) {
			if x > 0 {
				positive++
			}
		})
		shapes := []scaler{&box{1}, &box{2}}
		scaleAll(shapes, 2)
		out := []int{0}
		mpi.Allreduce(c, []int{positive}, out, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println(out[0], shapes[0].(*box).w)
		}
	})
}
