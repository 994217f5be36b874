// repro-packloop: after a short timed interval, every rank packs the items it
// kept (a slice whose length the interpreter does not know: filled by an
// append under a test in a reduced nest) into a send buffer with append, and
// rank 0 gathers the buffers. The packing loop is not reduced (its result is
// an argument of Gatherv) and is run step by step at every rank, the
// profile's count (n) per rank: the interpreter's work grows as P x n.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type item struct{ x, v float64 }

type slab struct{ kept []item }

func main() {
	n := flag.Int("n", 300000, "items over all ranks")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		s := &slab{}
		for i := 0; i < *n; i++ {
			x := (float64(i) + 0.5) / float64(*n)
			if int(x*float64(c.Size())) == c.Rank() {
				s.kept = append(s.kept, item{x, -x})
			}
		}
		c.BeginInterval(1)
		c.Barrier()
		c.EndInterval(1)

		counts := make([]int64, c.Size())
		mpi.Allgather(c, []int64{int64(2 * len(s.kept))}, counts)
		cs, ds := make([]int, c.Size()), make([]int, c.Size())
		total := 0
		for r := range cs {
			cs[r], ds[r] = int(counts[r]), total
			total += cs[r]
		}
		var packed []float64
		for _, it := range s.kept {
			packed = append(packed, it.x, it.v)
		}
		var all []float64
		if c.Rank() == 0 {
			all = make([]float64, total)
		}
		mpi.Gatherv(c, packed, all, cs, ds, 0)
		if c.Rank() == 0 {
			fmt.Println(len(all) / 2)
		}
	})
}
