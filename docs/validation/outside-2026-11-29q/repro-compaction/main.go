// Repro: a stream compaction (keep the elements that pass a test, count
// them in k) followed by a loop over the k kept elements, in a loop over 8
// arrays with an Allreduce of the count (so the outer loop is not
// reduced). The compaction
// loop is not reduced ("its result k decides a branch"), nor the loop over
// k ("trip count is data-dependent"): the prediction runs both step by
// step, 8 x -n iterations, and takes over 100 times as long as the program.
// With -split (the elements divided among the ranks) the serial fraction
// is estimated as 1 and its note blames "work dealt out by messages".
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
