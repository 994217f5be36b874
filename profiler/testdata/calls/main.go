// Command calls is profiler test input: calls that no statement of their
// own holds - a kernel in another call's arguments, a call of several
// results returned from inside a loop and after it -, and a kernel called
// through an interface that one type implements.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func work(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += 1 / float64(i+1)
	}
	return s
}

func total(c *mpi.Comm, x float64) float64 {
	out := []float64{0}
	mpi.Allreduce(c, []float64{x}, out, mpi.Sum)
	return out[0]
}

func stats(xs []float64) (float64, float64) {
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// scan returns the stats of xs up to its first negative element, from
// inside its loop, else of all of xs.
func scan(xs []float64) (float64, float64) {
	for i, x := range xs {
		if x < 0 {
			return stats(xs[:i+1])
		}
	}
	return stats(xs)
}

// part sums n terms on a sub-communicator.
func part(sub *mpi.Comm, n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += float64(i % 7)
	}
	return total(sub, s)
}

type smoother interface{ smooth(u []float64) float64 }

type jacobi struct{}

func (jacobi) smooth(u []float64) float64 {
	d := 0.0
	for i := 1; i < len(u)-1; i++ {
		v := (u[i-1] + u[i+1]) / 2
		d += v - u[i]
		u[i] = v
	}
	return d
}

func main() {
	n := flag.Int("n", 100000, "terms")
	steps := flag.Int("steps", 4, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		s := 0.0
		xs := make([]float64, 1000)
		for i := range xs {
			xs[i] = float64(i)
		}
		var sm smoother = jacobi{}
		for i := 0; i < *steps; i++ {
			s = total(c, work(*n/c.Size()))
			s += sm.smooth(xs)
			xs[500] = float64(1 - 2*(i%2))
			lo, hi := scan(xs)
			s += lo + hi
			p := part(c.Split(0, c.Rank()), 1000)
			s += part(c.Split(1, c.Rank()), 500) + p*work(10)
		}
		if c.Rank() == 0 {
			fmt.Println(s)
		}
	})
}
