// Command repro-pivot: LU's pivot search and row swap alone. Rows are
// dealt cyclically (row i on rank i%P, local row i/P); for every column k
// each rank finds its largest |a[i][k]| over rows i >= k (at = -1 when it
// has none), an Allgather of (value, row) pairs picks the pivot row p,
// and the owners of rows k and p swap them with Sendrecv.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 400, "rows and columns")
	flag.Bool("check", false, "unused")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size, n := c.Rank(), c.Size(), *n
		nloc := (n - rank + size - 1) / size
		a := make([]float64, nloc*n)
		for l := 0; l < nloc; l++ {
			for j := 0; j < n; j++ {
				a[l*n+j] = math.Sin(float64((l*size+rank)*n + j))
			}
		}
		tmp := make([]float64, n)
		pair, all := make([]float64, 2), make([]float64, 2*size)
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		for k := 0; k < n; k++ {
			best, at := -1.0, -1
			first := 0
			if k > rank {
				first = (k - rank + size - 1) / size
			}
			for l := first; l < nloc; l++ {
				if v := math.Abs(a[l*n+k]); v > best {
					best, at = v, l*size+rank
				}
			}
			pair[0], pair[1] = best, float64(at)
			mpi.Allgather(c, pair, all)
			p, pv := -1, -1.0
			for r := 0; r < size; r++ {
				if i := int(all[2*r+1]); i >= 0 && all[2*r] > pv {
					p, pv = i, all[2*r]
				}
			}
			ok, op := k%size, p%size
			switch {
			case p == k:
			case ok == rank && op == rank:
				rk, rp := a[k/size*n:k/size*n+n], a[p/size*n:p/size*n+n]
				for j := range rk {
					rk[j], rp[j] = rp[j], rk[j]
				}
			case ok == rank:
				r := a[k/size*n : k/size*n+n]
				mpi.Sendrecv(c, r, op, 1, tmp, op, 1)
				copy(r, tmp)
			case op == rank:
				r := a[p/size*n : p/size*n+n]
				mpi.Sendrecv(c, r, ok, 1, tmp, ok, 1)
				copy(r, tmp)
			}
		}
		c.EndInterval(1)
		c.Barrier()
		if rank == 0 {
			fmt.Printf("elapsed: %.6f s\n", mpi.Wtime()-t0)
		}
	})
}
