// Command repro-innerlen: a reduced nest whose inner bound is the length of
// a by-value struct's slice field, read through a method (m := o.len(),
// len(o.buf)/4), hoisted out of the inner loop. The bound is n/P here (the
// rank's own block), but the prediction takes "the profile's mean trips per
// entry" (n, from the 1-rank profile): every rank is charged n/P x n.
// -direct passes the slice itself (m := len(buf)/4) instead.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type block struct{ buf []float64 }

func (b block) len() int { return len(b.buf) / 4 }

func pairs(mine, other block, out []float64) {
	for i := range out {
		s := 0.0
		m := other.len()
		for j := 0; j < m; j++ {
			s += mine.buf[4*i] * other.buf[4*j]
		}
		out[i] = s
	}
}

func pairsDirect(mine, other []float64, out []float64) {
	for i := range out {
		s := 0.0
		m := len(other) / 4
		for j := 0; j < m; j++ {
			s += mine[4*i] * other[4*j]
		}
		out[i] = s
	}
}

func main() {
	n := flag.Int("n", 12000, "bodies")
	direct := flag.Bool("direct", false, "pass the slice, not the struct")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		lo, hi := c.Rank()**n/c.Size(), (c.Rank()+1)**n/c.Size()
		mine := block{make([]float64, 4*(hi-lo))}
		for i := range mine.buf {
			mine.buf[i] = float64(i % 7)
		}
		out := make([]float64, hi-lo)
		c.Barrier()
		c.BeginInterval(1)
		if *direct {
			pairsDirect(mine.buf, mine.buf, out)
		} else {
			pairs(mine, mine, out)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("done", out[0])
		}
	})
}
