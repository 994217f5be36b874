// Command firsttouch is interpreter test input for FirstTouch: receives
// into buffers that nothing wrote before pay their page faults once.
package main

import (
	"flag"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 1<<16, "elements per buffer")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		own := make([]float64, *n) // written by the program first: no faults
		for i := range own {
			own[i] = 1
		}
		fresh := make([]float64, *n) // first written by a receive
		small := make([]float64, 100)
		smallSum := make([]float64, 100) // under 32 KiB: shares touched pages
		for range 3 {
			mpi.Allreduce(c, own, fresh, mpi.Sum) // faults in the first step only
			mpi.Allreduce(c, small, smallSum, mpi.Sum)
		}
		half := make([]float64, *n)
		mpi.Bcast(c, half[:*n/2], 0) // the root sends: no faults
		mpi.Bcast(c, half, 0)        // the other half's pages are new
		for range 2 {
			tmp := make([]float64, *n) // the second reuses the first's memory
			mpi.Allreduce(c, own, tmp, mpi.Sum)
		}
	})
}
