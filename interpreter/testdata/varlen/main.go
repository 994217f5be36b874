// Command varlen is interpreter test input: rank 0 sends a count, then
// that many values; rank 1 sizes its receive buffer with slices.Grow, a
// library call whose result the interpreter does not know.
package main

import (
	"fmt"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	mpi.Main(func(c *mpi.Comm) {
		cnt := []int{0}
		var buf []float64
		switch c.Rank() {
		case 0:
			out := make([]float64, 1000)
			cnt[0] = len(out)
			mpi.Send(c, cnt, 1, 0)
			mpi.Send(c, out, 1, 1)
		case 1:
			mpi.Recv(c, cnt, 0, 0)
			buf = slices.Grow(buf[:0], cnt[0])[:cnt[0]]
			mpi.Recv(c, buf, 0, 1)
			fmt.Println("varlen: got", len(buf))
		}
	})
}
