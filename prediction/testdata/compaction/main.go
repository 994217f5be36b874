// Command compaction: eight passes of a stream compaction (the values of
// a block that pass a test on data, written out in order, k++) and a loop
// over the k values kept, with an Allreduce of k in the pass loop, so that
// the compaction loop is no reduced nest's root: k decides the next loop's
// exit (docs/validation/outside-2026-11-29q, repro-compaction).
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 4000000, "elements per rank (with -split: in all, in blocks over the ranks)")
	split := flag.Bool("split", false, "divide the -n elements among the ranks")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		m := *n
		if *split {
			m = (c.Rank()+1)**n/c.Size() - c.Rank()**n/c.Size()
		}
		x := make([]int64, m)
		out := make([]int64, m)
		for i := range x {
			x[i] = int64(i*7919) % 1000
		}
		c.BeginInterval(1)
		var s int64
		total := []int64{0}
		for a := range 8 {
			k := 0
			for i, v := range x {
				if v%7 == int64(a) {
					out[k] = int64(i)
					k++
				}
			}
			for j := range k {
				s += out[j]
			}
			mpi.Allreduce(c, []int64{int64(k)}, total, mpi.Sum) // the global count
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("s", s)
		}
	})
}
