// Command floyd computes all-pairs shortest paths on a random directed
// graph of -n nodes with the Floyd-Warshall algorithm. The rows of the
// distance matrix are block-distributed; for each k the owner of row k
// broadcasts it (the root rotates with k) and every rank relaxes its rows
// through k. With -check rank 0 gathers the matrix and compares it with a
// serial Floyd-Warshall.
//
//	go run . -np 4 -check
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

const inf = int32(1 << 29)

type opts struct {
	n       int
	density float64
	seed    uint64
	check   bool
}

// xorshift64* generator.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s ^= r.s >> 12
	r.s ^= r.s << 25
	r.s ^= r.s >> 27
	return r.s * 2685821657736338717
}

func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// row i of the initial matrix, the same on every rank.
func initRow(o opts, i int, row []int32) {
	r := rng{s: o.seed*0x9E3779B97F4A7C15 + uint64(i)*0xBF58476D1CE4E5B9 + 1}
	for j := range row {
		switch {
		case j == i:
			row[j] = 0
		case r.float() < o.density:
			row[j] = int32(1 + r.next()%100)
		default:
			row[j] = inf
		}
	}
}

// block is one rank's rows.
type block struct {
	n, lo, hi int
	dist      []int32 // (hi-lo) x n
}

func (b *block) row(i int) []int32 { return b.dist[(i-b.lo)*b.n : (i-b.lo+1)*b.n] }

func (b *block) owns(i int) bool { return i >= b.lo && i < b.hi }

// relax lowers every row of the block through node k, whose row is rk.
func (b *block) relax(k int, rk []int32) {
	for i := b.lo; i < b.hi; i++ {
		ri := b.row(i)
		dik := ri[k]
		if dik >= inf {
			continue
		}
		for j, dkj := range rk {
			if d := dik + dkj; d < ri[j] {
				ri[j] = d
			}
		}
	}
}

func ownerOf(n, size, k int) int {
	// block i: [i*n/size, (i+1)*n/size)
	r := (k*size + size - 1) / n
	for r > 0 && r*n/size > k {
		r--
	}
	for (r+1)*n/size <= k {
		r++
	}
	return r
}

func main() {
	var o opts
	flag.IntVar(&o.n, "n", 800, "nodes")
	flag.Float64Var(&o.density, "density", 0.05, "edge probability")
	flag.Uint64Var(&o.seed, "seed", 7, "seed")
	flag.BoolVar(&o.check, "check", false, "compare with a serial run on rank 0")
	flag.Parse()
	if o.n < 1 {
		fmt.Fprintln(os.Stderr, "floyd: need -n >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, o) })
}

func run(c *mpi.Comm, o opts) {
	rank, size := c.Rank(), c.Size()
	b := &block{n: o.n, lo: rank * o.n / size, hi: (rank + 1) * o.n / size}
	b.dist = make([]int32, (b.hi-b.lo)*o.n)
	for i := b.lo; i < b.hi; i++ {
		initRow(o, i, b.row(i))
	}
	rk := make([]int32, o.n)

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for k := 0; k < o.n; k++ {
		root := ownerOf(o.n, size, k)
		if b.owns(k) {
			copy(rk, b.row(k))
		}
		mpi.Bcast(c, rk, root)
		b.relax(k, rk)
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	var all []int32
	var counts, displs []int
	if o.check {
		counts = make([]int, size)
		displs = make([]int, size)
		for r := range size {
			counts[r] = ((r+1)*o.n/size - r*o.n/size) * o.n
			displs[r] = r * o.n / size * o.n
		}
		if rank == 0 {
			all = make([]int32, o.n*o.n)
		}
		mpi.Gatherv(c, b.dist, all, counts, displs, 0)
	}
	if rank != 0 {
		return
	}
	var reach int
	for _, d := range b.dist {
		if d < inf {
			reach++
		}
	}
	fmt.Printf("floyd: n=%d ranks=%d, rank 0 reaches %d pairs\n", o.n, size, reach)
	fmt.Printf("elapsed: %.6f s\n", elapsed)
	if !o.check {
		return
	}
	s := &block{n: o.n, lo: 0, hi: o.n, dist: make([]int32, o.n*o.n)}
	for i := 0; i < o.n; i++ {
		initRow(o, i, s.row(i))
	}
	for k := 0; k < o.n; k++ {
		s.relax(k, append([]int32(nil), s.row(k)...))
	}
	for i := range all {
		if all[i] != s.dist[i] {
			fmt.Fprintf(os.Stderr, "floyd: check failed at (%d,%d): %d, serial %d\n", i/o.n, i%o.n, all[i], s.dist[i])
			os.Exit(1)
		}
	}
	fmt.Println("floyd: check passed")
}
