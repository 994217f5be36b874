// Command deadlock is prediction test input: with more than one rank,
// every rank receives from its right neighbour before sending, so the
// ranks deadlock; with one rank it runs (and can be profiled).
package main

import "github.com/parpredict/parpredict/mpi"

func main() {
	mpi.Main(func(c *mpi.Comm) {
		buf := make([]float64, 16)
		if c.Size() > 1 {
			right, left := (c.Rank()+1)%c.Size(), (c.Rank()-1+c.Size())%c.Size()
			mpi.Recv(c, buf, right, 0)
			mpi.Send(c, buf, left, 0)
		}
	})
}
