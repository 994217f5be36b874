// Command pollmany: rank 0 posts a receive from every other rank and polls
// them in turn with Test, nothing between its tests, until all have
// completed (a task farm's master); rank r computes r x 1000 iterations
// before it sends (TestPollingManyRequests).
package main

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	mpi.Main(func(c *mpi.Comm) {
		if c.Rank() == 0 {
			bufs := make([][]float64, c.Size())
			reqs := make([]*mpi.Request, c.Size())
			for r := 1; r < c.Size(); r++ {
				bufs[r] = make([]float64, 1)
				reqs[r] = mpi.Irecv(c, bufs[r], r, 0)
			}
			left := c.Size() - 1
			for left > 0 {
				for r, q := range reqs {
					if q == nil {
						continue
					}
					if _, done := q.Test(); done {
						reqs[r] = nil
						left--
					}
				}
			}
			fmt.Println("all received")
			return
		}
		s := 0.0
		for i := 0; i < 1000*c.Rank(); i++ {
			s += float64(i)
		}
		mpi.Send(c, []float64{s}, 0, 0)
	})
}
