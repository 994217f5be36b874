// Command radix sorts -n uint32 keys spread over the ranks with an LSD
// radix sort, -bits bits per digit. Each pass: every rank counts its keys
// per bucket; the ranks Allgather the histograms (the mpi package has no
// Scan/Exscan, so each rank sums the prefixes itself), from which every
// key's global position follows (buckets in order, ranks in order within
// a bucket, a rank's keys in their order: a stable pass); the keys go to
// the rank that owns their position (equal blocks) with Alltoall of the
// counts and Alltoallv of the keys; the receiver puts them in place from
// the histograms. With -check rank 0 gathers the result and compares it
// with slices.Sort of the same keys.
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

type params struct {
	n, bits int
	seed    uint64
	check   bool
}

// span is a half-open range of global positions.
type span struct{ lo, hi int }

func (s span) len() int { return s.hi - s.lo }

func (s span) cut(o span) span {
	c := span{max(s.lo, o.lo), min(s.hi, o.hi)}
	if c.hi < c.lo {
		c.hi = c.lo
	}
	return c
}

func blockOf(n, size, rank int) span {
	return span{rank * n / size, (rank + 1) * n / size}
}

// exclusive returns the exclusive prefix sums of xs.
func exclusive[T ~int | ~int64](xs []T) []T {
	out := make([]T, len(xs))
	var s T
	for i, x := range xs {
		out[i] = s
		s += x
	}
	return out
}

// key i of the input, the same whichever rank makes it
func keyAt(seed uint64, i int) uint32 {
	x := (seed + uint64(i)) * 0x9E3779B97F4A7C15
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 29
	return uint32(x >> 32)
}

// sorter is one rank's state.
type sorter struct {
	c                *mpi.Comm
	p                params
	size, rank       int
	own              span
	keys, send, recv []uint32
	hist, all        []int
	scount, rcount   []int
	sdispl, rdispl   []int
	buckets          int
}

func newSorter(c *mpi.Comm, p params) *sorter {
	s := &sorter{c: c, p: p, size: c.Size(), rank: c.Rank(), buckets: 1 << p.bits}
	s.own = blockOf(p.n, s.size, s.rank)
	s.keys = make([]uint32, s.own.len())
	for i := range s.keys {
		s.keys[i] = keyAt(p.seed, s.own.lo+i)
	}
	s.send = make([]uint32, len(s.keys))
	s.recv = make([]uint32, len(s.keys))
	s.hist = make([]int, s.buckets)
	s.all = make([]int, s.buckets*s.size)
	s.scount = make([]int, s.size)
	s.rcount = make([]int, s.size)
	return s
}

// start returns the global position of the first key of bucket b from
// rank r: the keys of smaller buckets, then those of b on smaller ranks.
func (s *sorter) starts() [][]int {
	st := make([][]int, s.buckets)
	pos := 0
	for b := range s.buckets {
		st[b] = make([]int, s.size)
		for r := range s.size {
			st[b][r] = pos
			pos += s.all[r*s.buckets+b]
		}
	}
	return st
}

// pass sorts by the digit at shift.
func (s *sorter) pass(shift int) {
	mask := uint32(s.buckets - 1)
	digit := func(k uint32) int { return int(k >> shift & mask) }

	clear(s.hist)
	for _, k := range s.keys {
		s.hist[digit(k)]++
	}
	mpi.Allgather(s.c, s.hist, s.all)
	st := s.starts()

	// my keys in bucket order: a local counting sort into send
	off := exclusive(s.hist)
	for _, k := range s.keys {
		d := digit(k)
		s.send[off[d]] = k
		off[d]++
	}
	// how many go to each rank
	clear(s.scount)
	for b := range s.buckets {
		seg := span{st[b][s.rank], st[b][s.rank] + s.hist[b]}
		for r := s.owner(seg.lo); seg.len() > 0; r++ {
			part := seg.cut(blockOf(s.p.n, s.size, r))
			s.scount[r] += part.len()
			seg.lo = part.hi
		}
	}
	mpi.Alltoall(s.c, s.scount, s.rcount)
	s.sdispl = exclusive(s.scount)
	s.rdispl = exclusive(s.rcount)
	mpi.Alltoallv(s.c, s.send, s.scount, s.sdispl, s.recv, s.rcount, s.rdispl)

	// put the received keys in place: positions in order are bucket by
	// bucket, rank by rank; each source sent its keys in that order
	cursor := slices.Clone(s.rdispl)
	out := s.keys[:0]
	for b := range s.buckets {
		for r := range s.size {
			seg := span{st[b][r], st[b][r] + s.all[r*s.buckets+b]}.cut(s.own)
			if m := seg.len(); m > 0 {
				out = append(out, s.recv[cursor[r]:cursor[r]+m]...)
				cursor[r] += m
			}
		}
	}
	if len(out) != s.own.len() {
		panic(fmt.Sprintf("rank %d: placed %d keys, owns %d", s.rank, len(out), s.own.len()))
	}
}

// owner is the rank whose block holds global position g.
func (s *sorter) owner(g int) int {
	r := g * s.size / max(s.p.n, 1)
	for r > 0 && blockOf(s.p.n, s.size, r).lo > g {
		r--
	}
	for r < s.size-1 && blockOf(s.p.n, s.size, r).hi <= g {
		r++
	}
	return r
}

func main() {
	var p params
	flag.IntVar(&p.n, "n", 12000000, "keys in all")
	flag.IntVar(&p.bits, "bits", 8, "bits per digit (a divisor of 32)")
	flag.Uint64Var(&p.seed, "seed", 3, "seed of the keys")
	flag.BoolVar(&p.check, "check", false, "compare with slices.Sort on rank 0")
	flag.Parse()
	if p.n < 1 || p.bits < 1 || p.bits > 16 || 32%p.bits != 0 {
		fmt.Fprintln(os.Stderr, "radix: need -n >= 1 and -bits in 1, 2, 4, 8, 16")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

func run(c *mpi.Comm, p params) {
	s := newSorter(c, p)
	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for shift := 0; shift < 32; shift += p.bits {
		s.pass(shift)
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	// is it sorted across rank boundaries? first and last key of each rank
	ends := []uint32{0, 0}
	if len(s.keys) > 0 {
		ends = []uint32{s.keys[0], s.keys[len(s.keys)-1]}
	}
	allEnds := make([]uint32, 2*s.size)
	mpi.Allgather(c, ends, allEnds)
	var counts, displs []int
	var all []uint32
	if s.rank == 0 {
		counts = make([]int, s.size)
		for r := range s.size {
			counts[r] = blockOf(p.n, s.size, r).len()
		}
		displs = exclusive(counts)
		if p.check {
			all = make([]uint32, p.n)
		}
	}
	if p.check {
		mpi.Gatherv(c, s.keys, all, counts, displs, 0)
	}
	if s.rank != 0 {
		return
	}
	fmt.Printf("radix: %d keys, %d-bit digits, %d ranks, smallest %d, largest %d\n", p.n, p.bits, s.size, allEnds[0], allEnds[len(allEnds)-1])
	fmt.Printf("elapsed: %.6f s\n", elapsed)
	if !p.check {
		return
	}
	want := make([]uint32, p.n)
	for i := range want {
		want[i] = keyAt(p.seed, i)
	}
	slices.Sort(want)
	if !slices.Equal(want, all) {
		bad := 0
		for i := range want {
			if want[i] != all[i] {
				bad++
			}
		}
		fmt.Fprintf(os.Stderr, "radix: check failed: %d keys out of place\n", bad)
		os.Exit(1)
	}
	fmt.Println("radix: check passed")
}
