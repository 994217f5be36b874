// Command bitonic-plain is bitonic/ with the stage count log2(P) counted
// by a loop instead of bits.TrailingZeros, which the interpreter cannot
// evaluate (NOTES-E.md). Otherwise the same program.
//
// Command bitonic sorts n pseudo-random ints spread in equal blocks over P
// ranks, P a power of two, by a bitonic sort over the hypercube: each rank
// sorts its block with slices.Sort, then for every stage k and step j <= k
// it trades its block with partner rank ^ (1<<j) (Sendrecv) and keeps the
// lower or the higher half of the merge of both blocks. At the end block r
// holds the r-th smallest n/P values, in order. With -check rank 0
// gathers the blocks and compares them with a serial sort.
//
//	go run . -np 4 -check
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

type config struct {
	n     int
	seed  uint64
	check bool
}

// rng is a xorshift generator, so that every rank can make its own part of
// the input and the serial check the whole of it.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s ^= r.s << 13
	r.s ^= r.s >> 7
	r.s ^= r.s << 17
	return r.s
}

// block makes the ints of block r of size m.
func block(seed uint64, r, m int) []int {
	g := rng{s: seed*0x9E3779B97F4A7C15 + uint64(r)*0xBF58476D1CE4E5B9 + 1}
	out := make([]int, m)
	for i := range out {
		out[i] = int(g.next() % 1_000_000_000)
	}
	return out
}

// sorter is one rank's state: its block, the partner's block and the
// merge buffer, swapped after every step.
type sorter struct {
	c          *mpi.Comm
	mine, peer []int
	tmp        []int
	exchanges  int
}

// keepLow merges a and b (both ascending) into out, keeping the len(out)
// smallest.
func keepLow(out, a, b []int) {
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

// keepHigh merges a and b from their ends into out, keeping the len(out)
// largest.
func keepHigh(out, a, b []int) {
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

// compareSplit trades blocks with partner and keeps the low half if low.
func (s *sorter) compareSplit(partner int, low bool) {
	mpi.Sendrecv(s.c, s.mine, partner, 7, s.peer, partner, 7)
	if low {
		keepLow(s.tmp, s.mine, s.peer)
	} else {
		keepHigh(s.tmp, s.mine, s.peer)
	}
	s.mine, s.tmp = s.tmp, s.mine
	s.exchanges++
}

func (s *sorter) sort() {
	slices.Sort(s.mine)
	rank, size := s.c.Rank(), s.c.Size()
	d := 0 // log2(size), counted without math/bits (see NOTES-E.md)
	for 1<<d < size {
		d++
	}
	for k := 0; k < d; k++ {
		ascending := rank>>(k+1)&1 == 0
		for j := k; j >= 0; j-- {
			partner := rank ^ (1 << j)
			s.compareSplit(partner, (rank < partner) == ascending)
		}
	}
}

func main() {
	var cfg config
	flag.IntVar(&cfg.n, "n", 4_000_000, "ints to sort (a multiple of the rank count)")
	flag.Uint64Var(&cfg.seed, "seed", 42, "random seed")
	flag.BoolVar(&cfg.check, "check", false, "compare with a serial sort on rank 0")
	flag.Parse()
	if cfg.n < 1 {
		fmt.Fprintln(os.Stderr, "bitonic: -n must be >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, cfg) })
}

func run(c *mpi.Comm, cfg config) {
	size := c.Size()
	if size&(size-1) != 0 || cfg.n%size != 0 {
		if c.Rank() == 0 {
			fmt.Fprintf(os.Stderr, "bitonic: the rank count must be a power of two dividing n = %d (got %d ranks)\n", cfg.n, size)
		}
		c.Abort(2)
	}
	m := cfg.n / size
	s := &sorter{c: c, mine: block(cfg.seed, c.Rank(), m), peer: make([]int, m), tmp: make([]int, m)}

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	s.sort()
	c.EndInterval(1)
	c.Barrier()
	elapsed := mpi.Wtime() - t0
	if c.Rank() == 0 {
		fmt.Printf("bitonic: %d ints on %d ranks, %d exchanges per rank\nelapsed: %.6f s\n", cfg.n, size, s.exchanges, elapsed)
	}
	if !cfg.check {
		return
	}
	var all []int
	if c.Rank() == 0 {
		all = make([]int, cfg.n)
	}
	mpi.Gather(c, s.mine, all, 0)
	if c.Rank() != 0 {
		return
	}
	var want []int
	for r := 0; r < size; r++ {
		want = append(want, block(cfg.seed, r, m)...)
	}
	slices.Sort(want)
	if !slices.Equal(all, want) {
		bad := 0
		for i := range all {
			if all[i] != want[i] {
				bad = i
				break
			}
		}
		fmt.Fprintf(os.Stderr, "bitonic: check failed: first difference at %d (%d, want %d)\n", bad, all[bad], want[bad])
		c.Abort(1)
	}
	fmt.Println("bitonic: check passed")
}
