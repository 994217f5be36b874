// Command methodvalue is prediction test input: its kernel is a method
// passed as a method value (g.relax) to the function that calls it.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type grid struct{ w float64 }

func (g *grid) relax(u []float64) float64 {
	s := 0.0
	for i := 1; i < len(u)-1; i++ {
		v := (1-g.w)*u[i] + g.w*0.5*(u[i-1]+u[i+1])
		s += v - u[i]
		u[i] = v
	}
	return s
}

func repeat(k int, f func([]float64) float64, u []float64) float64 {
	s := 0.0
	for i := 0; i < k; i++ {
		s += f(u)
	}
	return s
}

func main() {
	n := flag.Int("n", 4000000, "points")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		u := make([]float64, *n/c.Size()+2)
		g := &grid{w: 0.8}
		s := repeat(5, g.relax, u)
		out := []float64{0}
		mpi.Allreduce(c, []float64{s}, out, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
