// Command methodfield keeps its state in a struct with the communicator
// beside the slices, and updates the slices through pointer-receiver
// methods called in reduced loops: one appends to a field
// (s.next = append(s.next, v)), one stores into a field's elements
// (s.out[k] = v). The MPI calls after the loops read s.c and len(s.data).
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

type state struct {
	c    *mpi.Comm
	data []float64
	out  []float64
	next []int
}

func (s *state) visit(i int) {
	if s.data[i] > 0.5 {
		s.next = append(s.next, i)
	}
}

func (s *state) set(k int, v float64) { s.out[k] = v }

func main() {
	n := flag.Int("n", 400000, "values in all")
	reps := flag.Int("reps", 10, "repetitions")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		m := *n / c.Size()
		s := &state{c: c, data: make([]float64, m), out: make([]float64, m)}
		for i := range s.data {
			s.data[i] = math.Abs(math.Sin(float64(i)))
		}
		local, global := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for range *reps {
			s.next = s.next[:0]
			for i := range s.data {
				s.visit(i)
			}
			for k := range s.out {
				s.set(k, math.Sqrt(s.data[k])*math.Exp(-s.data[k]))
			}
			local[0] = float64(len(s.next)) + s.out[0]
			mpi.Allreduce(s.c, local, global, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("%.0f of %d, %d each\n", global[0], *n, len(s.data))
		}
	})
}
