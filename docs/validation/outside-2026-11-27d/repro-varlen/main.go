// Command repro-varlen: each rank keeps the values of its data that pass
// a test (how many depends on the data) and passes them to the rank on
// its right, count first, then the values, the receive buffer sized by
// the count received: a chain, so the end ranks use Send or Recv and the
// inner ranks Sendrecv. It runs for real at any P. The prediction at P
// >= 3 fails with "message of N bytes ... does not fit the 0-byte receive
// buffer": the receive buffer's length is unknown to the interpreter and
// the Sendrecv site never ran in the profile's runs (1 and 2 ranks), so
// interpreter/mpicall.go bytesOf takes it as 0 bytes, while the message
// (unknown length too) gets the profiled size of the Send site.
//
//	go run . -np 4
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 200000, "values per rank")
	iters := flag.Int("iters", 20, "iterations")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		r := rand.New(rand.NewPCG(1, uint64(rank)))
		x := make([]float64, *n)
		for i := range x {
			x[i] = r.Float64()
		}
		var out, in []float64
		cnt, got := []int{0}, []int{0}
		right, left := rank+1, rank-1
		if right == size {
			right = -1
		}
		total := 0
		c.BeginInterval(1)
		for it := range *iters {
			out = out[:0]
			for _, v := range x {
				if v < 0.01*float64(it%5+1) {
					out = append(out, v, 2*v)
				}
			}
			cnt[0], got[0] = len(out), 0
			switch {
			case right >= 0 && left >= 0:
				mpi.Sendrecv(c, cnt, right, 0, got, left, 0)
			case right >= 0:
				mpi.Send(c, cnt, right, 0)
			case left >= 0:
				mpi.Recv(c, got, left, 0)
			}
			in = slices.Grow(in[:0], got[0])[:got[0]]
			switch {
			case right >= 0 && left >= 0:
				mpi.Sendrecv(c, out, right, 1, in, left, 1)
			case right >= 0:
				mpi.Send(c, out, right, 1)
			case left >= 0:
				mpi.Recv(c, in, left, 1)
			}
			total += len(in)
		}
		c.EndInterval(1)
		if rank == size-1 {
			fmt.Println("received", total)
		}
	})
}
