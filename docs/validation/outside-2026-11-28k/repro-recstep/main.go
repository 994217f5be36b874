// repro-recstep: a recursive search whose loop runs over bits of a mask
// (for m := mask; m != 0; m &= m - 1) is not reduced ("trip count is
// data-dependent"), and since every value is known to the interpreter it
// executes the whole search instruction by instruction: the prediction's
// run time grows as 2^k, like the program's, but some 100x slower.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

// walk visits 2^popcount(mask) nodes.
func walk(mask uint64) int64 {
	var n int64 = 1
	for m := mask; m != 0; m &= m - 1 {
		bit := m & -m
		n += walk(mask & (bit - 1))
	}
	return n
}

func main() {
	k := flag.Int("k", 20, "bits: the search visits 2^k nodes")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		full := uint64(1)<<*k - 1
		in, out := make([]int64, 1), make([]int64, 1)
		c.BeginInterval(1)
		for i := range *k { // the subtree under top-level bit i has 2^i nodes
			if i%size != rank {
				continue
			}
			in[0] += walk(full & (uint64(1)<<i - 1))
		}
		mpi.Reduce(c, in, out, mpi.Sum, 0)
		c.EndInterval(1)
		if rank == 0 {
			fmt.Println("nodes", out[0]+1, "want", uint64(1)<<*k)
		}
	})
}
