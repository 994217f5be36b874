// repro-elemstore: one reduced loop both appends to the buckets of a
// [][]int32 field (s.out[o] = append(s.out[o], v)) and stores into an
// element of another slice field (s.dist[i] = 1); the next MPI call reads
// the communicator from the same struct: "the communicator is not known".
// Either statement alone predicts.
package main

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type state struct {
	c    *mpi.Comm
	data []int32
	out  [][]int32
	dist []int32
}

func main() {
	mpi.Main(func(c *mpi.Comm) {
		k := 200000 / c.Size()
		s := &state{c: c, data: make([]int32, k), out: make([][]int32, c.Size()), dist: make([]int32, k)}
		for i := range s.data {
			s.data[i] = int32(i * 7)
		}
		counts, recv := make([]int, c.Size()), make([]int, c.Size())
		c.BeginInterval(1)
		for range 20 {
			for r := range s.out {
				s.out[r] = s.out[r][:0]
			}
			for _, v := range s.data {
				if o := int(v) % c.Size(); o != c.Rank() {
					s.out[o] = append(s.out[o], v)
				} else {
					s.dist[int(v)%len(s.dist)] = 1
				}
			}
			for r, b := range s.out {
				counts[r] = len(b)
			}
			mpi.Alltoall(s.c, counts, recv)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("received", recv)
		}
	})
}
