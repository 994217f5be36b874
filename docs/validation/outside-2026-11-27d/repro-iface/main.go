// Command repro-iface: the work of each iteration is a method called
// through an interface (one implementation). The profiler does not time
// the method or anything it calls (profiler/policy.go, cleanCallee:
// calledThroughInterface), so the kernel's loop over this rank's n/P
// elements is charged at the profiled run's time per interface call at
// every P: no speedup predicted.
//
//	go run . -np 2
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type Stepper interface{ Step() float64 }

type scaler struct{ x []float64 }

func (s *scaler) Step() float64 { return kernel(s.x) }

func kernel(x []float64) float64 {
	t := 0.0
	for i := range x {
		x[i] = 0.5*x[i] + 1
		t += x[i]
	}
	return t
}

func main() {
	n := flag.Int("n", 2000000, "elements in all")
	iters := flag.Int("iters", 50, "iterations")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		var s Stepper = &scaler{x: make([]float64, *n/c.Size())}
		in, out := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for range *iters {
			in[0] = s.Step()
			mpi.Allreduce(c, in, out, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
