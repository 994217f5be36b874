// Command montecarlo estimates pi by sampling points in the unit square,
// in rounds: each rank draws -chunk points a round, split over -threads
// goroutines, and an Allreduce adds up the hits; the rounds go on until
// the estimate's standard error falls below -tol (or -rounds). Rank 0
// prints the estimate.
//
//	go run . -np 4 -threads 2
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sync"

	"github.com/parpredict/parpredict/mpi"
)

type params struct {
	chunk, threads, rounds int
	tol                    float64
}

func main() {
	var p params
	flag.IntVar(&p.chunk, "chunk", 400000, "points per rank per round")
	flag.IntVar(&p.threads, "threads", 1, "goroutines per rank")
	flag.IntVar(&p.rounds, "rounds", 50, "most rounds")
	flag.Float64Var(&p.tol, "tol", 1e-4, "stop when the standard error is below this")
	flag.Parse()
	if p.chunk < 1 || p.threads < 1 || p.rounds < 1 {
		fmt.Fprintln(os.Stderr, "montecarlo: -chunk, -threads and -rounds must be at least 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

func run(c *mpi.Comm, p params) {
	rank := c.Rank()
	gens := make([]*rand.Rand, p.threads)
	for t := range p.threads {
		gens[t] = rand.New(rand.NewPCG(uint64(rank), uint64(t)))
	}
	local, total := []int64{0, 0}, []int64{0, 0} // hits, points
	est, se := 0.0, math.Inf(1)
	c.BeginInterval(1)
	round := 0
	for ; round < p.rounds && se > p.tol; round++ {
		local[0] += sample(gens, p.chunk)
		local[1] += int64(p.chunk)
		mpi.Allreduce(c, local, total, mpi.Sum)
		q := float64(total[0]) / float64(total[1])
		est, se = 4*q, 4*math.Sqrt(q*(1-q)/float64(total[1]))
	}
	c.EndInterval(1)
	if rank == 0 {
		fmt.Printf("montecarlo: pi ~ %.6f +- %.1e after %d rounds of %d points on %d ranks\n", est, se, round, p.chunk, c.Size())
	}
}

// sample draws n points over the generators, each on a goroutine of its
// own when there are several, and counts those inside the quarter circle.
func sample(gens []*rand.Rand, n int) int64 {
	if len(gens) == 1 {
		return count(gens[0], n)
	}
	hits := make([]int64, len(gens))
	var wg sync.WaitGroup
	for t, g := range gens {
		share := n/len(gens) + boolInt(t < n%len(gens))
		wg.Go(func() { hits[t] = count(g, share) })
	}
	wg.Wait()
	var sum int64
	for _, h := range hits {
		sum += h
	}
	return sum
}

// count draws n points from g and counts those inside the quarter circle.
func count(g *rand.Rand, n int) int64 {
	var hits int64
	for range n {
		x, y := g.Float64(), g.Float64()
		if x*x+y*y <= 1 {
			hits++
		}
	}
	return hits
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
