// repro-knownzero: fault 2(b) without fault 1. repro-guessentry's kernel
// now returns the largest change it made (r := 0.0, updated in the loop),
// and the iterations stop when the Allreduce'd change is below -tol (it
// never is with the default: every run makes -maxit iterations). When the
// prediction guesses that the kernel's loop does not run (its header test
// on the unknown reps, 0.5), apply returns a known 0; the Allreduce of
// known zeros is a known 0 and the loop ends.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

type stage struct{ shift float64 }

// apply runs the stage's kernel reps times over the block and returns
// the largest change.
func (s stage) apply(b []float64, reps int) float64 {
	r := 0.0
	for range reps {
		for i, x := range b {
			b[i] = x + 1e-9*math.Sqrt(x*x+s.shift) + 1e-3 // never converges
			r = max(r, math.Abs(b[i]-x))
		}
	}
	return r
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
	blocks := flag.Int("maxit", 2000, "most iterations")
	tol := flag.Float64("tol", 1e-300, "stop when the change is below this")
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
		change := math.Inf(1)
		out := make([]float64, 1)
		k := 0
		for k < *blocks && change >= *tol {
			local := 0.0
			for _, s := range mine {
				local = max(local, s.apply(b, cost[k]))
			}
			mpi.Allreduce(c, []float64{local}, out, mpi.Max)
			change = out[0]
			k++
		}
		c.Barrier()
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("%d iterations, change %.3g\nelapsed: %.6f s\n", k, change, mpi.Wtime()-t0)
		}
	})
}
