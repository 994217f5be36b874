// repro-check-abort: a correctness check that compares a value received
// from the previous rank (a branch no rank reaches at P = 1) and aborts the
// job when it fails. The real program passes at every P.
package main

import (
	"flag"
	"fmt"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 100000, "keys per rank")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		keys := make([]float64, *n)
		for i := range keys {
			keys[i] = float64(rank) + float64((i*7919)%*n)/float64(*n)
		}
		c.BeginInterval(1)
		slices.Sort(keys) // rank r holds [r, r+1): globally sorted
		c.EndInterval(1)
		// check: my first key is not below the previous rank's last
		bad := []int32{0}
		if rank+1 < size {
			mpi.Send(c, keys[len(keys)-1:], rank+1, 7)
		}
		if rank > 0 {
			prev := []float64{0}
			mpi.Recv(c, prev, rank-1, 7)
			if prev[0] > keys[0] {
				bad[0] = 1
			}
		}
		all := []int32{0}
		mpi.Allreduce(c, bad, all, mpi.Max)
		if rank == 0 {
			if all[0] != 0 {
				fmt.Println("check: FAILED")
				c.Abort(1)
			}
			fmt.Println("check: ok")
		}
	})
}
