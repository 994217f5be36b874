// Command hqs: hyperquicksort of -n random keys over a power-of-two number of ranks.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 400000, "keys in all")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		if p := c.Size(); p&(p-1) != 0 {
			if c.Rank() == 0 {
				fmt.Fprintln(os.Stderr, "hqs: the rank count must be a power of two")
			}
			return
		}
		seed := uint64(c.Rank())*7919 + 17
		keys := make([]float64, *n/c.Size())
		for i := range keys {
			seed = seed*6364136223846793005 + 1442695040888963407
			keys[i] = float64(seed>>11) / (1 << 53)
		}
		c.BeginInterval(1)
		slices.Sort(keys)
		keys = hqs(c, keys)
		c.EndInterval(1)
		cnt := []int{len(keys)}
		all := []int{0}
		mpi.Reduce(c, cnt, all, mpi.Sum, 0)
		if c.Rank() == 0 {
			fmt.Println("keys:", all[0])
		}
	})
}

// hqs sorts keys (sorted on each rank) across c: afterwards every key on
// rank r is at most every key on rank r+1.
func hqs(c *mpi.Comm, keys []float64) []float64 {
	p := c.Size()
	if p == 1 {
		return keys
	}
	pivot := []float64{0.5}
	if c.Rank() == 0 && len(keys) > 0 {
		pivot[0] = keys[len(keys)/2]
	}
	mpi.Bcast(c, pivot, 0)
	cut, _ := slices.BinarySearch(keys, pivot[0])
	low := c.Rank() < p/2
	partner := c.Rank() + p/2
	send, keep := keys[cut:], keys[:cut]
	if !low {
		partner = c.Rank() - p/2
		send, keep = keys[:cut], keys[cut:]
	}
	counts := []int{len(send)}
	theirs := []int{0}
	mpi.Sendrecv(c, counts, partner, 0, theirs, partner, 0)
	got := make([]float64, theirs[0])
	mpi.Sendrecv(c, send, partner, 1, got, partner, 1)
	merged := make([]float64, 0, len(keep)+len(got))
	i, j := 0, 0
	for i < len(keep) && j < len(got) {
		if keep[i] <= got[j] {
			merged = append(merged, keep[i])
			i++
		} else {
			merged = append(merged, got[j])
			j++
		}
	}
	merged = append(merged, keep[i:]...)
	merged = append(merged, got[j:]...)
	color := 0
	if !low {
		color = 1
	}
	return hqs(c.Split(color, c.Rank()), merged)
}
