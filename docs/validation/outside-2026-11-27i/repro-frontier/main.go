// repro-frontier: each rank selects part of its block into a slice
// (append under a branch, in a reduced loop), then works on the selected
// elements. The second loop's count, len(sel), is n/(3P) per rank; the
// prediction takes it as the 1-rank profile's n/3 at every P.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

type state struct {
	data, sel []int32
}

func main() {
	n := flag.Int("n", 1200000, "elements over all ranks")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		s := &state{data: make([]int32, *n/c.Size())}
		for i := range s.data {
			s.data[i] = int32(i)
		}
		local, total := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for round := range 4 {
			s.sel = s.sel[:0]
			for _, v := range s.data {
				if (int(v)+round)%3 == 0 {
					s.sel = append(s.sel, v)
				}
			}
			for _, v := range s.sel {
				for k := range 16 {
					local[0] += math.Sqrt(float64(int(v) + k))
				}
			}
			mpi.Allreduce(c, local, total, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(total[0])
		}
	})
}
