// Command recvsort is prediction test input: each rank sorts what an
// Alltoallv delivers to it, a buffer sized by counts the ranks exchange,
// which follow the data: the interpreter cannot know its length.
package main

import (
	"flag"
	"fmt"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 200000, "numbers in all")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		p, me := c.Size(), c.Rank()
		local := make([]float64, *n/p)
		x := uint64(me + 1)
		for i := range local {
			x = x*6364136223846793005 + 1442695040888963407
			local[i] = float64(x>>11) / (1 << 53)
		}
		// Bucket b of every rank goes to rank b: the numbers in [b/p,
		// (b+1)/p), in their order, so every rank sorts unsorted data.
		send, sdispls := make([]int, p), make([]int, p)
		for _, v := range local {
			send[min(int(v*float64(p)), p-1)]++
		}
		for i := 1; i < p; i++ {
			sdispls[i] = sdispls[i-1] + send[i-1]
		}
		packed, next := make([]float64, len(local)), slices.Clone(sdispls)
		for _, v := range local {
			b := min(int(v*float64(p)), p-1)
			packed[next[b]] = v
			next[b]++
		}
		recv, rdispls := make([]int, p), make([]int, p)
		mpi.Alltoall(c, send, recv)
		total := recv[0]
		for i := 1; i < p; i++ {
			rdispls[i] = rdispls[i-1] + recv[i-1]
			total += recv[i]
		}
		mine := make([]float64, total)
		mpi.Alltoallv(c, packed, send, sdispls, mine, recv, rdispls)
		slices.Sort(mine)
		if me == 0 {
			fmt.Println(len(mine))
		}
	})
}
