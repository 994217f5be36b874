// Command panicguard moves items to the right and checks, before it
// sends their count on, that the last rank has none to send:
// len(s.rght) > 0 && to >= size. The first part is unknown to the
// interpreter (a reduced loop appended the items), the second known, so
// a branch decided by the profiled frequency led the last rank to the
// panic, which the real program never reaches, and every P > 1 failed
// (docs/validation/outside-2026-11-28n, repro-panic-guard). -swap tests
// the rank first; -early returns at once with one rank; -or tests
// len(s.rght) > 0 && (to < 0 || to >= size), as histo there does.
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

func (s *slab) exchange(swap, early, or bool) {
	rank, size := s.c.Rank(), s.c.Size()
	if early && size == 1 {
		return // nothing to exchange (as histo's exchange)
	}
	to := rank + 1
	switch {
	case or:
		if len(s.rght) > 0 && (to < 0 || to >= size) {
			panic(fmt.Sprintf("rank %d: items for a rank that does not exist", rank))
		}
	case swap:
		if to >= size && len(s.rght) > 0 {
			panic(fmt.Sprintf("rank %d: items for a rank that does not exist", rank))
		}
	default:
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
	or := flag.Bool("or", false, "test len(s.rght) > 0 && (to < 0 || to >= size)")
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
			s.exchange(*swap, *early, *or)
		}
		c.Barrier()
		if rank == 0 {
			fmt.Println("ok")
		}
	})
}
