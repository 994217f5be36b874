// repro-nbarray: the neighbour ranks are an [2]int array field set from a
// method that fills it in a loop; the send/receive ranks read h.nb[d].
package main

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type ring struct{ rank, size int }

func (g ring) neighbours() [2]int {
	var nb [2]int
	step := [2]int{-1, 1}
	for d, s := range step {
		nb[d] = (g.rank + s + g.size) % g.size
	}
	return nb
}

type halo struct {
	c  *mpi.Comm
	nb [2]int
}

func main() {
	mpi.Main(func(c *mpi.Comm) {
		h := &halo{c: c, nb: ring{c.Rank(), c.Size()}.neighbours()}
		buf, in := make([]float64, 1000), make([]float64, 1000)
		c.BeginInterval(1)
		for range 100 {
			r := mpi.Irecv(c, in, h.nb[0], 0)
			s := mpi.Isend(c, buf, h.nb[1], 0)
			mpi.Waitall(r, s)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("ok")
		}
	})
}
