// Command sendfirst is prediction test input: every rank sends 32 KiB to
// its right neighbour with a blocking Send, then receives from its left.
// The goroutine backend buffers the message after a short wait, so the
// program runs there; an MPI library sends it by rendezvous, and the
// ranks wait for each other for good.
package main

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	mpi.Main(func(c *mpi.Comm) {
		r, p := c.Rank(), c.Size()
		out := make([]float64, 4096)
		in := make([]float64, 4096)
		for i := range out {
			out[i] = float64(r)
		}
		c.BeginInterval(1)
		for range 10 {
			mpi.Send(c, out, (r+1)%p, 0)
			mpi.Recv(c, in, (r+p-1)%p, 0)
		}
		c.EndInterval(1)
		if r == 0 {
			fmt.Println(in[0])
		}
	})
}
