// Command testpoll overlaps a wait with work: rank 0 posts a receive and
// polls it with Test, doing a chunk of work between polls, while rank 1
// computes for a long time before it sends (TestPollingOverlapsWork);
// it then waits for the request, which package mpi answers at once.
package main

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	mpi.Main(func(c *mpi.Comm) {
		buf := []float64{0}
		switch c.Rank() {
		case 0:
			req := mpi.Irecv(c, buf, 1, 0)
			polls := 0
			for {
				if _, done := req.Test(); done {
					break
				}
				polls++
			}
			st := req.Wait() // done already: returns at once
			fmt.Println("polls:", polls, "from", st.Source)
		case 1:
			s := 0.0
			for i := 0; i < 2000; i++ {
				s += float64(i)
			}
			buf[0] = s
			mpi.Send(c, buf, 0, 0)
		}
	})
}
