// Command psort: a parallel sample sort of -n random numbers.
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 400000, "numbers in all")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) { run(c, *n) })
}

func run(c *mpi.Comm, n int) {
	p, me := c.Size(), c.Rank()
	rng := rand.New(rand.NewSource(int64(me) + 1))
	local := make([]float64, n/p)
	for i := range local {
		local[i] = rng.Float64()
	}
	c.BeginInterval(1)
	slices.Sort(local)
	// p-1 regular samples per rank, gathered everywhere.
	samples := make([]float64, p-1)
	for i := range samples {
		samples[i] = local[(i+1)*len(local)/p]
	}
	all := make([]float64, (p-1)*p)
	mpi.Allgather(c, samples, all)
	slices.Sort(all)
	splitters := make([]float64, p-1)
	for i := range splitters {
		splitters[i] = all[(i+1)*(p-1)]
	}
	// Bucket boundaries in the sorted local data.
	sendCounts := make([]int, p)
	start := 0
	for b := 0; b < p; b++ {
		end := len(local)
		if b < p-1 {
			end, _ = slices.BinarySearch(local, splitters[b])
		}
		sendCounts[b] = end - start
		start = end
	}
	recvCounts := make([]int, p)
	mpi.Alltoall(c, sendCounts, recvCounts)
	sdispls, rdispls := make([]int, p), make([]int, p)
	total := 0
	for i := 0; i < p; i++ {
		if i > 0 {
			sdispls[i] = sdispls[i-1] + sendCounts[i-1]
			rdispls[i] = rdispls[i-1] + recvCounts[i-1]
		}
		total += recvCounts[i]
	}
	mine := make([]float64, total)
	mpi.Alltoallv(c, local, sendCounts, sdispls, mine, recvCounts, rdispls)
	slices.Sort(mine)
	c.EndInterval(1)
	counts := []float64{float64(len(mine))}
	sum := []float64{0}
	mpi.Reduce(c, counts, sum, mpi.Sum, 0)
	if me == 0 {
		fmt.Printf("sorted %.0f numbers\n", sum[0])
	}
}
