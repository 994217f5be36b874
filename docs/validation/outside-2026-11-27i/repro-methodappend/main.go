// repro-methodappend: a pointer-receiver method that appends to a slice
// field of its receiver (s.next = append(s.next, v)), called in a reduced
// loop; the next MPI call reads the communicator from the same struct.
package main

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type state struct {
	c    *mpi.Comm
	data []int32
	next []int32
}

func (s *state) visit(v int32) {
	if v%3 == 0 {
		s.next = append(s.next, v)
	}
}

func main() {
	mpi.Main(func(c *mpi.Comm) {
		s := &state{c: c, data: make([]int32, 200000/c.Size())}
		for i := range s.data {
			s.data[i] = int32(i)
		}
		local, global := []int64{0}, []int64{0}
		c.BeginInterval(1)
		for range 20 {
			s.next = s.next[:0]
			for _, v := range s.data {
				s.visit(v)
			}
			local[0] = int64(len(s.next))
			mpi.Allreduce(s.c, local, global, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("selected", global[0])
		}
	})
}
