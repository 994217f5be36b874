// Command fieldstore keeps a rank's items in a struct by a filter loop
// (d.items = append(d.items, i) under a condition, a reduced nest), then
// works over the rank's range, d.lo to d.hi: the filter's writes must
// leave d's bounds known.
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

func (d *domain) work() float64 {
	s := 0.0
	for i := d.lo; i < d.hi; i++ {
		for j := range 500 {
			s += float64(i^j) * 1e-9
		}
	}
	return s
}

func main() {
	n := flag.Int("n", 2000, "units of work")
	iters := flag.Int("iters", 10, "iterations")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		lo, hi := c.Rank()**n/c.Size(), (c.Rank()+1)**n/c.Size()
		d := &domain{lo: lo, hi: hi}
		for i := range *n {
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
			fmt.Println("fieldstore:", len(d.items), out[0])
		}
	})
}
