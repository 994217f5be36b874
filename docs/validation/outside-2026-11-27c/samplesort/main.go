// Command samplesort sorts -n random int64 keys spread over the ranks by
// parallel sample sort, -reps times: each rank sorts its keys, picks
// -over evenly spaced samples, the samples are gathered everywhere
// (Allgather), every rank picks the same P-1 splitters from them, counts
// how many of its keys go to each rank, the counts are exchanged
// (Alltoall) and then the keys (Alltoallv). Each rank then holds P sorted
// runs, which it merges pairwise (a hand-written two-way merge, log P
// rounds). With -check rank 0 gathers the result of the last repetition
// and compares it with a serial sort of the same keys.
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
	n, reps, over int
	seed          uint64
	check         bool
}

func main() {
	var cfg config
	flag.IntVar(&cfg.n, "n", 1_000_000, "keys in all")
	flag.IntVar(&cfg.reps, "reps", 3, "how many times to sort")
	flag.IntVar(&cfg.over, "over", 32, "samples per rank")
	flag.Uint64Var(&cfg.seed, "seed", 7, "random seed")
	flag.BoolVar(&cfg.check, "check", false, "compare the last sort with a serial one on rank 0")
	flag.Parse()
	if cfg.n < 1 || cfg.reps < 1 || cfg.over < 1 {
		fmt.Fprintln(os.Stderr, "samplesort: -n, -reps and -over must be at least 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { newSorter(c, cfg).run() })
}

// rng is a xorshift64* generator: cheap, and the same on every platform.
type rng struct{ s uint64 }

func newRNG(seed uint64) *rng { return &rng{s: seed*0x9E3779B97F4A7C15 + 1} }

func (r *rng) next() int64 {
	r.s ^= r.s >> 12
	r.s ^= r.s << 25
	r.s ^= r.s >> 27
	return int64(r.s*2685821657736338717) >> 1
}

// share is the number of keys rank r of p holds before the sort.
func share(n, p, r int) int { return (r+1)*n/p - r*n/p }

// fill writes the keys of rank r in repetition rep.
func fill(keys []int64, seed uint64, rep, r int) {
	g := newRNG(seed + uint64(rep)*1_000_003 + uint64(r)*7919)
	for i := range keys {
		keys[i] = g.next()
	}
}

type sorter struct {
	c              *mpi.Comm
	cfg            config
	rank, size     int
	keys           []int64 // this rank's keys before the exchange
	samples, all   []int64
	splitters      []int64
	scount, rcount []int
	sdispl, rdispl []int
	recv, tmp      []int64
}

func newSorter(c *mpi.Comm, cfg config) *sorter {
	s := &sorter{c: c, cfg: cfg, rank: c.Rank(), size: c.Size()}
	p := s.size
	s.keys = make([]int64, share(cfg.n, p, s.rank))
	s.samples = make([]int64, cfg.over)
	s.all = make([]int64, cfg.over*p)
	s.splitters = make([]int64, p-1)
	s.scount, s.rcount = make([]int, p), make([]int, p)
	s.sdispl, s.rdispl = make([]int, p), make([]int, p)
	return s
}

// sample picks evenly spaced keys of the sorted local keys (repeating
// the last when there are fewer keys than samples).
func (s *sorter) sample() {
	m := len(s.keys)
	for i := range s.samples {
		if m == 0 {
			s.samples[i] = 0
			continue
		}
		s.samples[i] = s.keys[min(m-1, (i*m+m/2)/len(s.samples))]
	}
}

// chooseSplitters sorts the gathered samples and takes every over-th.
func (s *sorter) chooseSplitters() {
	slices.Sort(s.all)
	for i := range s.splitters {
		s.splitters[i] = s.all[(i+1)*s.cfg.over]
	}
}

// countDestinations walks the sorted keys once: keys below splitter d go
// to rank d, the rest to the last rank.
func (s *sorter) countDestinations() {
	clear(s.scount)
	d := 0
	for _, k := range s.keys {
		for d < len(s.splitters) && k >= s.splitters[d] {
			d++
		}
		s.scount[d]++
	}
	s.sdispl[0] = 0
	for r := 1; r < s.size; r++ {
		s.sdispl[r] = s.sdispl[r-1] + s.scount[r-1]
	}
}

// exchange trades the counts and then the keys.
func (s *sorter) exchange() {
	mpi.Alltoall(s.c, s.scount, s.rcount)
	total := 0
	for r := range s.size {
		s.rdispl[r] = total
		total += s.rcount[r]
	}
	if cap(s.recv) < total {
		s.recv = make([]int64, total)
		s.tmp = make([]int64, total)
	}
	s.recv, s.tmp = s.recv[:total], s.tmp[:total]
	mpi.Alltoallv(s.c, s.keys, s.scount, s.sdispl, s.recv, s.rcount, s.rdispl)
}

// merge2 merges the sorted a and b into out.
func merge2(out, a, b []int64) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if a[i] <= b[j] {
			out[k] = a[i]
			i++
		} else {
			out[k] = b[j]
			j++
		}
		k++
	}
	k += copy(out[k:], a[i:])
	copy(out[k:], b[j:])
}

// mergeRuns merges the P received runs pairwise until one is left; the
// result ends in s.recv.
func (s *sorter) mergeRuns() {
	bounds := make([]int, 0, s.size+1)
	bounds = append(bounds, s.rdispl...)
	bounds = append(bounds, len(s.recv))
	src, dst := s.recv, s.tmp
	for len(bounds) > 2 {
		next := bounds[:1]
		for i := 0; i+1 < len(bounds); i += 2 {
			lo := bounds[i]
			if i+2 < len(bounds) {
				mid, hi := bounds[i+1], bounds[i+2]
				merge2(dst[lo:hi], src[lo:mid], src[mid:hi])
				next = append(next, hi)
			} else {
				hi := bounds[i+1]
				copy(dst[lo:hi], src[lo:hi])
				next = append(next, hi)
			}
		}
		bounds = next
		src, dst = dst, src
	}
	if &src[0] != &s.recv[0] && len(src) > 0 {
		copy(s.recv, src)
	}
}

func (s *sorter) sortOnce(rep int) {
	fill(s.keys, s.cfg.seed, rep, s.rank)
	slices.Sort(s.keys)
	s.sample()
	mpi.Allgather(s.c, s.samples, s.all)
	s.chooseSplitters()
	s.countDestinations()
	s.exchange()
	s.mergeRuns()
}

func (s *sorter) run() {
	t0 := mpi.Wtime()
	s.c.BeginInterval(1)
	for rep := 0; rep < s.cfg.reps; rep++ {
		s.sortOnce(rep)
	}
	s.c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	// the sizes of the result blocks, for the report and the check
	sizes := make([]int, s.size)
	mine := []int{len(s.recv)}
	mpi.Allgather(s.c, mine, sizes)
	if !s.cfg.check {
		if s.rank == 0 {
			fmt.Printf("samplesort: %d keys x %d on %d ranks in %.3f s, largest block %d\n",
				s.cfg.n, s.cfg.reps, s.size, elapsed, slices.Max(sizes))
		}
		return
	}
	displs := make([]int, s.size)
	for r := 1; r < s.size; r++ {
		displs[r] = displs[r-1] + sizes[r-1]
	}
	var got []int64
	if s.rank == 0 {
		got = make([]int64, s.cfg.n)
	}
	mpi.Gatherv(s.c, s.recv, got, sizes, displs, 0)
	if s.rank != 0 {
		return
	}
	want := make([]int64, 0, s.cfg.n)
	for r := range s.size {
		part := make([]int64, share(s.cfg.n, s.size, r))
		fill(part, s.cfg.seed, s.cfg.reps-1, r)
		want = append(want, part...)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		fmt.Fprintln(os.Stderr, "samplesort: check failed: result differs from a serial sort")
		s.c.Abort(1)
	}
	fmt.Printf("samplesort: %d keys x %d on %d ranks in %.3f s, largest block %d, check passed\n",
		s.cfg.n, s.cfg.reps, s.size, elapsed, slices.Max(sizes))
}
