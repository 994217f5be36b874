// Command repro-bigappend: work = append(work[:0], mine...) with more than
// 4096 elements makes work unknown to the interpreter, its length and
// capacity included (interpreter/call.go appendValues: m > smallCopy
// returns unknown). A reduced nest over work then takes its inner count at
// the 1-rank profile's mean (n, not n/P), and a message of work's length
// is "buffer length unknown". With -n 12000: 6000 elements at P = 2 (wrong),
// 3000 at P = 4 (right). -copy fills work with copy() instead.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"

	"github.com/parpredict/parpredict/mpi"
)

func pairs(mine, other, out []float64) {
	for i := range mine {
		s := 0.0
		for j := range other {
			s += mine[i] * other[j]
		}
		out[i] = s
	}
}

func main() {
	n := flag.Int("n", 12000, "elements in all")
	useCopy := flag.Bool("copy", false, "copy instead of append")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		lo, hi := c.Rank()**n/c.Size(), (c.Rank()+1)**n/c.Size()
		mine := make([]float64, hi-lo)
		for i := range mine {
			// rand.New is not pure: the loop runs step by step, mine's cells exist
			mine[i] = rand.New(rand.NewPCG(1, uint64(lo+i))).Float64()
		}
		work := make([]float64, 0, hi-lo)
		out := make([]float64, hi-lo)
		c.Barrier()
		c.BeginInterval(1)
		if *useCopy {
			work = work[:len(mine)]
			copy(work, mine)
		} else {
			work = append(work[:0], mine...)
		}
		pairs(mine, work, out)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("done", out[len(out)-1])
		}
	})
}
