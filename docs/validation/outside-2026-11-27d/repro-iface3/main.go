// Command repro-iface3: repro-iface2 with the Allreduce inside the
// methods (as a solver's Step sums its dot product): the interface call
// holds MPI. Otherwise as repro-iface2: a method called through an
// interface whose dynamic type a flag picks (two implementations). The profiler cannot resolve the call, times the
// interface call as a whole and drops the timers of both methods and of
// everything they call (profiler/policy.go: cleanCallee,
// calledThroughInterface, then the "counted twice" cascade); the
// prediction charges the call's profiled own time per call at every P,
// so the kernel over this rank's n/P elements predicts no speedup.
// repro-iface2 (MPI outside the method) and repro-iface (the dynamic type visible in the syntax) is predicted well.
//
//	go run . -np 2 -kind scale
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type Stepper interface{ Step(c *mpi.Comm) float64 }

type scaler struct{ x []float64 }
type shifter struct{ x []float64 }

func (s *scaler) Step(c *mpi.Comm) float64  { return sum(c, kernel(s.x, 0.5)) }
func (s *shifter) Step(c *mpi.Comm) float64 { return sum(c, kernel(s.x, 1)) }

func sum(c *mpi.Comm, v float64) float64 {
	in, out := []float64{v}, []float64{0}
	mpi.Allreduce(c, in, out, mpi.Sum)
	return out[0]
}

func kernel(x []float64, a float64) float64 {
	t := 0.0
	for i := range x {
		x[i] = a*x[i] + 1
		t += x[i]
	}
	return t
}

func newStepper(kind string, n int) Stepper {
	if kind == "shift" {
		return &shifter{make([]float64, n)}
	}
	return &scaler{make([]float64, n)}
}

func main() {
	n := flag.Int("n", 2000000, "elements in all")
	iters := flag.Int("iters", 50, "iterations")
	kind := flag.String("kind", "scale", "scale or shift")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		s := newStepper(*kind, *n/c.Size())
		t := 0.0
		c.BeginInterval(1)
		for range *iters {
			t = s.Step(c)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(t)
		}
	})
}
