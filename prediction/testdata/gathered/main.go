// Gathered: a rank's share of the data depends on the data (items are
// kept with a probability that peaks in the middle of [0, 1), as histo's
// particles bunch up in a trap), from
// docs/validation/outside-2026-11-28n/repro-imbalance. At 2 ranks the two
// shares are equal; at 4 and 8 the middle ranks hold most items.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

type slab struct {
	xs, keep []float64
}

// generate puts n items evenly in [lo, hi).
func (s *slab) generate(n int, lo, hi float64) {
	s.xs = make([]float64, n)
	for i := range s.xs {
		s.xs[i] = lo + (hi-lo)*(float64(i)+0.5)/float64(n)
	}
}

// filter keeps an item with probability exp(-((x-1/2)/0.15)^2), or with
// flat, with 0.2655 everywhere (the same mean: balanced ranks).
func (s *slab) filter(flat bool) {
	s.keep = s.keep[:0]
	r := uint64(88172645463325252)
	for _, x := range s.xs {
		r ^= r << 13
		r ^= r >> 7
		r ^= r << 17
		u := float64(r>>11) / (1 << 53)
		d := (x - 0.5) / 0.15
		p := math.Exp(-d * d)
		if flat {
			p = 0.2655
		}
		if u < p {
			s.keep = append(s.keep, x)
		}
	}
}

// work costs reps steps per kept item.
func (s *slab) work(reps int) float64 {
	sum := 0.0
	for _, x := range s.keep {
		y := x
		for k := 0; k < reps; k++ {
			y = y*0.999 + 0.001*x
		}
		sum += y
	}
	return sum
}

func main() {
	n := flag.Int("n", 1200000, "items")
	reps := flag.Int("reps", 400, "work per item")
	flat := flag.Bool("flat", false, "keep items with the same probability everywhere (control)")
	steps := flag.Int("steps", 1, "split the work into this many steps, each ended by an Allreduce (histo's per-step exchange)")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		s := &slab{}
		s.generate(*n/size, float64(rank)/float64(size), float64(rank+1)/float64(size))
		s.filter(*flat)
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		sum := 0.0
		all := []float64{0}
		for t := 0; t < *steps; t++ {
			sum += s.work(*reps / *steps)
			mpi.Allreduce(c, []float64{sum}, all, mpi.Sum)
		}
		c.EndInterval(1)
		mpi.Allreduce(c, []float64{sum}, all, mpi.Sum)
		cnt, tot := []int64{0}, []int64{0}
		mpi.Reduce(c, []int64{int64(len(s.keep))}, cnt, mpi.Max, 0)
		mpi.Reduce(c, []int64{int64(len(s.keep))}, tot, mpi.Sum, 0)
		if rank == 0 {
			fmt.Printf("P=%d kept %d, largest share %.3f elapsed: %.6f s\n", size, tot[0], float64(cnt[0])/float64(tot[0]), mpi.Wtime()-t0)
		}
	})
}
