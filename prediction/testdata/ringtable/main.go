// Command ringtable names its two neighbours on a ring in an array that a
// short loop over a table of steps fills, calling a method; the exchanges
// send to and receive from them.
package main

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type ring struct{ rank, size int }

// at is the rank r places from g's, around the ring.
func (g ring) at(r int) int { return (g.rank + r + g.size) % g.size }

func (g ring) neighbours() [2]int {
	var nb [2]int
	step := [2]int{-1, 1}
	for d, s := range step {
		nb[d] = g.at(s)
	}
	return nb
}

func main() {
	mpi.Main(func(c *mpi.Comm) {
		nb := ring{c.Rank(), c.Size()}.neighbours()
		buf, in := make([]float64, 1000), make([]float64, 1000)
		c.BeginInterval(1)
		for range 100 {
			r := mpi.Irecv(c, in, nb[0], 0)
			s := mpi.Isend(c, buf, nb[1], 0)
			mpi.Waitall(r, s)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("ok")
		}
	})
}
