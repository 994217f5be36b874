// repro-guessentry: a kernel repeated reps times, reps = cost[k] from a
// work-list drawn by a helper that takes an options struct (the prediction
// does not know reps); the stages a rank runs are built by append over a
// rank-dependent range, the block by a closure in a generic helper. The
// block loop holds an MPI call (never made), so it runs step by step and
// enters the kernel's nest once per call. The nest's header test on the
// unknown reps is guessed at 0.5 ("branch without profile data: taken
// half the time"): the nest is charged in every other call only.
// (Each of the simplifications tried, a literal stages slice, a plain
// make for the block, a whole-loop reduction, made it disappear.)
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

type stage struct{ shift float64 }

func (s stage) apply(b []float64, reps int) {
	for range reps {
		for i, x := range b {
			b[i] = 0.5*x + 0.25*math.Sqrt(x*x+s.shift)
		}
	}
}

type options struct {
	blocks, maxCost int
	seed            uint64
}

func workList(o options) []int {
	cost := make([]int, o.blocks)
	x := o.seed*2862933555777941757 + 3037000493
	for k := range cost {
		x = x*6364136223846793005 + 1442695040888963407
		cost[k] = 1 + int((x>>33)%uint64(o.maxCost))
	}
	return cost
}

func fill[T any](n int, mk func() T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = mk()
	}
	return s
}

func main() {
	blocks := flag.Int("blocks", 2000, "blocks")
	bs := flag.Int("bs", 8192, "block size")
	nst := flag.Int("stages", 2, "stages")
	seed := flag.Uint64("seed", 11, "seed")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		cost := workList(options{*blocks, 4, *seed})
		var mine []stage
		for s := rank * *nst / size; s < (rank+1)**nst/size; s++ {
			mine = append(mine, stage{float64(s + 1)})
		}
		bsz := *bs
		b := fill(1, func() []float64 { return make([]float64, bsz) })[0]
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		for k := range *blocks {
			for _, s := range mine {
				s.apply(b, cost[k])
			}
			if k < 0 {
				c.Barrier() // never: but the loop has MPI, so it is not reduced
			}
		}
		c.Barrier()
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("elapsed: %.6f s\n", mpi.Wtime()-t0)
		}
	})
}
