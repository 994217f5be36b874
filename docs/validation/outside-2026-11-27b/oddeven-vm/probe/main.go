// Command oddeven sorts n random int64 keys by odd-even transposition
// sort: each rank holds about n/P keys (generated from its rank), sorts them,
// and then in P phases trades its whole block with a neighbour (ranks
// 2i and 2i+1 in even phases, 2i+1 and 2i+2 in odd ones); the lower rank
// keeps the smaller half of the two blocks, the upper the larger.
// With -check rank 0 gathers the keys and verifies that they are sorted
// and that none were lost.
//
//	go run . -np 4 -n 1000000 -check
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 4000000, "keys in all")
	check := flag.Bool("check", false, "gather the keys on rank 0 and verify the order")
	flag.Parse()
	if *n < 1 {
		fmt.Fprintln(os.Stderr, "oddeven: -n must be at least 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *check) })
}

func run(c *mpi.Comm, n int, check bool) {
	rank, size := c.Rank(), c.Size()
	block := func(r int) int { return (r+1)*n/size - r*n/size }
	rng := rand.New(rand.NewPCG(uint64(rank), 42))
	keys := make([]int64, block(rank))
	var sum int64
	for i := range keys {
		keys[i] = rng.Int64N(1 << 40)
		sum += keys[i]
	}
	other := make([]int64, n/size+1)
	merged := make([]int64, len(keys))

	t0 := mpi.Wtime()
	c.BeginInterval(1)
	ts := time.Now()
	slices.Sort(keys)
	sortNs := time.Since(ts).Nanoseconds()
	var mergeNs, mergeN int64
	for phase := range size {
		partner := rank + 1
		if (rank+phase)%2 == 1 {
			partner = rank - 1
		}
		if partner < 0 || partner >= size {
			continue
		}
		theirs := other[:block(partner)]
		mpi.Sendrecv(c, keys, partner, phase, theirs, partner, phase)
		tm := time.Now()
		if rank < partner {
			mergeLow(keys, theirs, merged)
		} else {
			mergeHigh(keys, theirs, merged)
		}
		mergeNs += time.Since(tm).Nanoseconds()
		mergeN += int64(len(merged))
		keys, merged = merged, keys
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0
	st := []int64{sortNs, mergeNs, mergeN}
	tot := make([]int64, 3)
	mpi.Reduce(c, st, tot, mpi.Sum, 0)
	if rank == 0 {
		fmt.Printf("probe P=%d: sort %.1f ms in all (%.1f ns/key), merge %.1f ms in all over %d keys (%.2f ns/key)\n", size, float64(tot[0])/1e6, float64(tot[0])/float64(n), float64(tot[1])/1e6, tot[2], float64(tot[1])/float64(max(tot[2], 1)))
	}

	if !check {
		if rank == 0 {
			fmt.Printf("oddeven: sorted %d keys on %d ranks in %.3f s\n", n, size, elapsed)
		}
		return
	}
	var all []int64
	if rank == 0 {
		all = make([]int64, n)
	}
	counts, displs := make([]int, size), make([]int, size)
	for r := range size {
		counts[r], displs[r] = block(r), r*n/size
	}
	mpi.Gatherv(c, keys, all, counts, displs, 0)
	sums := make([]int64, 1)
	mpi.Reduce(c, []int64{sum}, sums, mpi.Sum, 0)
	if rank == 0 {
		var got int64
		for _, k := range all {
			got += k
		}
		if !slices.IsSorted(all) || got != sums[0] {
			fmt.Fprintf(os.Stderr, "oddeven: check failed (sorted %v, sum %d want %d)\n", slices.IsSorted(all), got, sums[0])
			c.Abort(1)
		}
		fmt.Printf("oddeven: sorted %d keys on %d ranks in %.3f s, check passed\n", n, size, elapsed)
	}
}

// mergeLow writes the len(out) smallest keys of the sorted a and b to out.
func mergeLow(a, b, out []int64) {
	i, j := 0, 0
	for k := range out {
		if j >= len(b) || (i < len(a) && a[i] <= b[j]) {
			out[k] = a[i]
			i++
		} else {
			out[k] = b[j]
			j++
		}
	}
}

// mergeHigh writes the len(out) largest keys of the sorted a and b to out.
func mergeHigh(a, b, out []int64) {
	i, j := len(a)-1, len(b)-1
	for k := len(out) - 1; k >= 0; k-- {
		if j < 0 || (i >= 0 && a[i] > b[j]) {
			out[k] = a[i]
			i--
		} else {
			out[k] = b[j]
			j--
		}
	}
}
