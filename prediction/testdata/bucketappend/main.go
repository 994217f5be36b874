// Command bucketappend deals each rank's share of the data out to buckets,
// four at a time, in a reduced nest that appends to the buckets of a
// [][]int32 field of a struct (s.out[o] = append(s.out[o], v)) while
// its bound is the length of another field of the same type, s.data; the
// next MPI call reads the communicator from the same struct
// (docs/validation/outside-2026-11-27i/repro-bucketappend).
package main

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type state struct {
	c    *mpi.Comm
	data []int32
	out  [][]int32
}

func main() {
	mpi.Main(func(c *mpi.Comm) {
		s := &state{c: c, data: make([]int32, 200000/c.Size()), out: make([][]int32, c.Size())}
		for i := range s.data {
			s.data[i] = int32(i * 7)
		}
		counts, recv := make([]int, c.Size()), make([]int, c.Size())
		c.BeginInterval(1)
		for range 20 {
			for r := range s.out {
				s.out[r] = s.out[r][:0]
			}
			for k := 0; k+4 <= len(s.data); k += 4 {
				for _, v := range s.data[k : k+4] {
					o := int(v) % c.Size()
					s.out[o] = append(s.out[o], v)
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
