// Command repro-fieldstore: a loop that keeps some items by appending
// them to a field of a struct (d.items = append(d.items, x) under an if)
// is reduced, and the interpreter then forgets the whole struct, not just
// d.items: d.lo and d.hi, set from the rank before, become unknown, and
// every rank's work loop over d.lo..d.hi is charged the profiled run's
// whole time per entry (no speedup predicted).
//
//	go run . -np 2
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type domain struct {
	lo, hi int
	items  []int
}

// work does hi-lo units of work.
func (d *domain) work() float64 {
	s := 0.0
	for i := d.lo; i < d.hi; i++ {
		for j := range 2000 {
			s += float64(i^j) * 1e-9
		}
	}
	return s
}

func main() {
	n := flag.Int("n", 4000, "units of work")
	iters := flag.Int("iters", 20, "iterations")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		lo, hi := c.Rank()**n/c.Size(), (c.Rank()+1)**n/c.Size()
		d := &domain{lo: lo, hi: hi}
		for i := range *n { // keep the items of this rank's range
			if i >= lo && i < hi {
				d.items = append(d.items, i)
			}
		}
		in, out := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for range *iters {
			in[0] = d.work()
			mpi.Allreduce(c, in, out, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(len(d.items), out[0])
		}
	})
}
