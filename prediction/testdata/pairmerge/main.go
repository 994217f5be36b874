// Command pairmerge is test input (profiler and prediction): with two
// ranks or more, ranks pair up, exchange their sorted numbers and merge
// them, a loop that exits on data; with one rank there is nothing to
// merge, so a profile at one rank never reaches that code.
package main

import (
	"flag"
	"fmt"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 400000, "numbers in all")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		p, me := c.Size(), c.Rank()
		mine := make([]float64, *n/p)
		x := uint64(me + 1)
		for i := range mine {
			x = x*6364136223846793005 + 1442695040888963407
			mine[i] = float64(x>>11) / (1 << 53)
		}
		slices.Sort(mine)
		// All of them, but the interpreter cannot know how many: the
		// merge below exits on data.
		cut, _ := slices.BinarySearch(mine, 2)
		mine = mine[:cut]
		merged := mine
		if partner := me ^ 1; partner < p {
			count := []int{0}
			mpi.Sendrecv(c, []int{len(mine)}, partner, 0, count, partner, 0)
			theirs := make([]float64, count[0])
			mpi.Sendrecv(c, mine, partner, 1, theirs, partner, 1)
			merged = make([]float64, 0, 2*len(mine))
			i, j := 0, 0
			for i < len(mine) && j < len(theirs) {
				if mine[i] <= theirs[j] {
					merged = append(merged, mine[i])
					i++
				} else {
					merged = append(merged, theirs[j])
					j++
				}
			}
			merged = append(merged, mine[i:]...)
			merged = append(merged, theirs[j:]...)
		}
		out := []float64{0}
		mpi.Allreduce(c, []float64{merged[len(merged)/2]}, out, mpi.Sum)
		if me == 0 {
			fmt.Println(len(merged), out[0] > 0)
		}
	})
}
