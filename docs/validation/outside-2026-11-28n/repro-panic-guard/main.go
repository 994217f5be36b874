// Repro: a sanity panic guarded by a compound condition whose first part
// is unknown to the interpreter (the length of a slice a reduced loop
// filled with append) makes every P > 1 prediction fail; with the two
// parts swapped (-swap) it does not. The real program never panics.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type slab struct {
	c    *mpi.Comm
	xhi  float64
	xs   []float64
	rght []float64
}

// step moves every item and collects those that left the slab.
func (s *slab) step() {
	s.rght = s.rght[:0]
	for i := range s.xs {
		s.xs[i] += 0.001
		if s.xs[i] >= s.xhi {
			s.rght = append(s.rght, s.xs[i])
		}
	}
}

func (s *slab) exchange(swap, early bool) {
	rank, size := s.c.Rank(), s.c.Size()
	if early && size == 1 {
		return // nothing to exchange (as histo's exchange)
	}
	to := rank + 1
	if swap {
		if to >= size && len(s.rght) > 0 {
			panic(fmt.Sprintf("rank %d: items for a rank that does not exist", rank))
		}
	} else {
		if len(s.rght) > 0 && to >= size {
			panic(fmt.Sprintf("rank %d: items for a rank that does not exist", rank))
		}
	}
	cnt := []int64{int64(len(s.rght))}
	if to < size {
		mpi.Send(s.c, cnt, to, 0)
	}
	if rank > 0 {
		mpi.Recv(s.c, cnt, rank-1, 0)
	}
}

func main() {
	n := flag.Int("n", 100000, "items per rank")
	steps := flag.Int("steps", 20, "steps")
	swap := flag.Bool("swap", false, "test the rank first, then len(s.rght)")
	early := flag.Bool("early", false, "return from exchange at once with one rank")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		s := &slab{c: c, xhi: float64(rank+1) / float64(size)}
		if rank == size-1 {
			s.xhi = 2 // the last slab takes everything up to the wall
		}
		s.xs = make([]float64, *n)
		for i := range s.xs {
			s.xs[i] = (float64(rank) + float64(i)/float64(*n)) / float64(size)
		}
		for t := 0; t < *steps; t++ {
			s.step()
			s.exchange(*swap, *early)
		}
		c.Barrier()
		if rank == 0 {
			fmt.Println("ok")
		}
	})
}
