// Command serialprobe runs odd-even transposition sort's steps one after
// another in one goroutine (the blocks of P ranks in a slice) and prints
// the time per key of the local sort and of the merges in each phase:
// what the ranks of oddeven spend, without oversubscription.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

func main() {
	n := flag.Int("n", 4000000, "keys")
	flag.Parse()
	for _, p := range []int{1, 2, 4, 8, 16} {
		blocks := make([][]int64, p)
		for r := range p {
			rng := rand.New(rand.NewPCG(uint64(r), 42))
			blocks[r] = make([]int64, (r+1)**n/p-r**n/p)
			for i := range blocks[r] {
				blocks[r][i] = rng.Int64N(1 << 40)
			}
		}
		t := time.Now()
		for r := range p {
			slices.Sort(blocks[r])
		}
		sortNs := float64(time.Since(t).Nanoseconds())
		var mergeNs, keys float64
		first := 0.0
		for phase := range p {
			t := time.Now()
			k := 0.0
			for lo := phase % 2; lo+1 < p; lo += 2 {
				a, b := blocks[lo], blocks[lo+1]
				low, high := make([]int64, len(a)), make([]int64, len(b))
				mergeLow(a, b, low)
				mergeHigh(b, a, high)
				blocks[lo], blocks[lo+1] = low, high
				k += float64(len(a) + len(b))
			}
			ns := float64(time.Since(t).Nanoseconds())
			if phase == 0 {
				first = ns / k
			}
			mergeNs += ns
			keys += k
		}
		fmt.Printf("P=%2d: sort %.1f ns/key (%.1f ms, %d keys a block); merge %.2f ns/key over all phases, %.2f in phase 0 (%.1f ms in all)\n",
			p, sortNs/float64(*n), sortNs/1e6, *n/p, mergeNs/max(keys, 1), first, mergeNs/1e6)
	}
}

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
