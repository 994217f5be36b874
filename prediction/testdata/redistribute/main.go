// Command redistribute moves particles to the rank owning their cell:
// binning with append, counts exchanged with Alltoall, particles with
// Alltoallv, whose buffer sizes only the data tell, then a push per
// particle (TestUnknownMessageSizesFromProfile).
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 20000, "particles per rank")
	steps := flag.Int("steps", 2, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		size, rank := c.Size(), c.Rank()
		xs := make([]float64, *n)
		seed := uint64(rank)*7919 + 1
		for i := range xs {
			seed = seed*6364136223846793005 + 1442695040888963407
			xs[i] = float64(seed>>11) / (1 << 53)
		}
		c.BeginInterval(1)
		for s := 0; s < *steps; s++ {
			bins := make([][]float64, size)
			for _, x := range xs {
				o := int(x * float64(size))
				if o >= size {
					o = size - 1
				}
				bins[o] = append(bins[o], x)
			}
			scount, rcount := make([]int, size), make([]int, size)
			for r := range bins {
				scount[r] = len(bins[r])
			}
			mpi.Alltoall(c, scount, rcount)
			sdispl, rdispl := make([]int, size), make([]int, size)
			var send []float64
			tot := 0
			for r := range bins {
				sdispl[r] = len(send)
				send = append(send, bins[r]...)
				rdispl[r] = tot
				tot += rcount[r]
			}
			recv := make([]float64, tot)
			mpi.Alltoallv(c, send, scount, sdispl, recv, rcount, rdispl)
			for i := range recv {
				recv[i] = math.Mod(recv[i]+0.37*float64(rank+1)/float64(size), 1)
			}
			xs = recv
		}
		c.EndInterval(1)
		cnt := []int{len(xs)}
		all := []int{0}
		mpi.Allreduce(c, cnt, all, mpi.Sum)
		if rank == 0 {
			fmt.Println("particles:", all[0])
		}
	})
}
