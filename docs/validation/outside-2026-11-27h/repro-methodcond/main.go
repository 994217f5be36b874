// Command repro-methodcond: a reduced nest whose inner loop bound is a
// value-receiver method call in the loop condition (j < o.len(), where
// len() is len(o.buf)/4) is "data-dependent" and is run step by step.
// -hoist puts the same bound in a variable before the loop.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type block struct{ buf []float64 }

func (b block) len() int { return len(b.buf) / 4 }

func sumCond(mine, other block, out []float64) {
	for i := range out {
		s := 0.0
		for j := 0; j < other.len(); j++ {
			s += mine.buf[4*i] * other.buf[4*j]
		}
		out[i] = s
	}
}

func sumHoist(mine, other block, out []float64) {
	for i := range out {
		s := 0.0
		m := other.len()
		for j := 0; j < m; j++ {
			s += mine.buf[4*i] * other.buf[4*j]
		}
		out[i] = s
	}
}

func main() {
	n := flag.Int("n", 6000, "bodies")
	hoist := flag.Bool("hoist", false, "bound in a variable")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		lo, hi := c.Rank()**n/c.Size(), (c.Rank()+1)**n/c.Size()
		mine := block{make([]float64, 4*(hi-lo))}
		all := block{make([]float64, 4**n)}
		for i := range all.buf {
			all.buf[i] = float64(i % 7)
		}
		out := make([]float64, hi-lo)
		c.Barrier()
		c.BeginInterval(1)
		if *hoist {
			sumHoist(mine, all, out)
		} else {
			sumCond(mine, all, out)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("done", out[0])
		}
	})
}
