// Command samplesort sorts n float64 keys with a parallel sample sort.
// The keys are generated from a seed per global index and block-distributed.
// Each repetition: sort locally, pick size-1 regular samples, Allgather the
// samples, choose size-1 splitters, partition the local keys into size
// buckets, exchange bucket sizes with Alltoall and the keys with Alltoallv,
// then sort what arrived.
//
//	go run . -np 4 -n 1000000 -reps 3
//
// With -check (default) every rank verifies its part is sorted, neighbours
// verify the boundaries, and rank 0 checks the total count.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"sort"

	"github.com/parpredict/parpredict/mpi"
)

type config struct {
	n, reps int
	seed    uint64
	check   bool
}

// key returns the deterministic key of global index i (splitmix64).
func key(seed uint64, i int) float64 {
	z := seed + uint64(i)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	z ^= z >> 31
	return float64(z>>11) / float64(1<<53)
}

// sorter holds one rank's state.
type sorter struct {
	c          *mpi.Comm
	rank, size int
	keys       []float64
	samples    []float64
	allSamples []float64
	splitters  []float64
	sendCounts []int
	sendDispls []int
	recvCounts []int
	recvDispls []int
	sendBuf    []float64
	recvBuf    []float64
}

func newSorter(c *mpi.Comm, local int) *sorter {
	p := c.Size()
	return &sorter{
		c: c, rank: c.Rank(), size: p,
		keys:       make([]float64, local),
		samples:    make([]float64, p-1),
		allSamples: make([]float64, p*(p-1)),
		splitters:  make([]float64, p-1),
		sendCounts: make([]int, p),
		sendDispls: make([]int, p),
		recvCounts: make([]int, p),
		recvDispls: make([]int, p),
		sendBuf:    make([]float64, local),
	}
}

// generate fills the local keys for repetition r.
func (s *sorter) generate(cfg config, lo, r int) {
	seed := cfg.seed + uint64(r)*1000003
	for i := range s.keys {
		s.keys[i] = key(seed, lo+i)
	}
}

// chooseSplitters picks regular samples, gathers them and picks splitters.
func (s *sorter) chooseSplitters() {
	p := s.size
	n := len(s.keys)
	for i := 0; i < p-1; i++ {
		s.samples[i] = s.keys[(i+1)*n/p]
	}
	mpi.Allgather(s.c, s.samples, s.allSamples)
	sort.Float64s(s.allSamples)
	for i := 0; i < p-1; i++ {
		s.splitters[i] = s.allSamples[(i+1)*(p-1)]
	}
}

// partition counts the keys of each bucket; the keys are sorted, so the
// buckets are contiguous and the send buffer is the key array itself.
func (s *sorter) partition() {
	b := 0
	for i := range s.sendCounts {
		s.sendCounts[i] = 0
	}
	for _, k := range s.keys {
		for b < s.size-1 && k >= s.splitters[b] {
			b++
		}
		s.sendCounts[b]++
	}
	off := 0
	for i := range s.sendCounts {
		s.sendDispls[i] = off
		off += s.sendCounts[i]
	}
	copy(s.sendBuf, s.keys)
}

// exchange sends every bucket to its owner.
func (s *sorter) exchange() {
	mpi.Alltoall(s.c, s.sendCounts, s.recvCounts)
	total := 0
	for i, cnt := range s.recvCounts {
		s.recvDispls[i] = total
		total += cnt
	}
	if cap(s.recvBuf) < total {
		s.recvBuf = make([]float64, total)
	}
	s.recvBuf = s.recvBuf[:total]
	mpi.Alltoallv(s.c, s.sendBuf, s.sendCounts, s.sendDispls, s.recvBuf, s.recvCounts, s.recvDispls)
}

func (s *sorter) sortOnce() {
	slices.Sort(s.keys)
	s.chooseSplitters()
	s.partition()
	s.exchange()
	slices.Sort(s.recvBuf)
}

// verify checks that the keys are globally sorted and none were lost.
func (s *sorter) verify(n int) bool {
	ok := slices.IsSorted(s.recvBuf)
	// send my largest to the next rank, receive the previous rank's largest
	mine := []float64{-1}
	if len(s.recvBuf) > 0 {
		mine[0] = s.recvBuf[len(s.recvBuf)-1]
	}
	prev := []float64{-1}
	next, before := s.rank+1, s.rank-1
	if next < s.size {
		mpi.Send(s.c, mine, next, 7)
	}
	if before >= 0 {
		mpi.Recv(s.c, prev, before, 7)
		if len(s.recvBuf) > 0 && prev[0] > s.recvBuf[0] {
			ok = false
		}
	}
	cnt := []int64{int64(len(s.recvBuf))}
	tot := []int64{0}
	mpi.Allreduce(s.c, cnt, tot, mpi.Sum)
	if tot[0] != int64(n) {
		ok = false
	}
	flag := []int32{0}
	if !ok {
		flag[0] = 1
	}
	bad := []int32{0}
	mpi.Allreduce(s.c, flag, bad, mpi.Max)
	return bad[0] == 0
}

func run(c *mpi.Comm, cfg config) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*cfg.n/size, (rank+1)*cfg.n/size
	if hi-lo < size {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "samplesort: -n %d too small for %d ranks\n", cfg.n, size)
		}
		c.Abort(2)
	}
	s := newSorter(c, hi-lo)
	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for r := 0; r < cfg.reps; r++ {
		s.generate(cfg, lo, r)
		s.sortOnce()
	}
	c.EndInterval(1)
	t1 := mpi.Wtime()
	if cfg.check {
		ok := s.verify(cfg.n)
		if rank == 0 {
			if ok {
				fmt.Println("check: ok (globally sorted, count preserved)")
			} else {
				fmt.Println("check: FAILED")
				c.Abort(1)
			}
		}
	}
	if rank == 0 {
		fmt.Printf("elapsed: %.4f s\n", t1-t0)
	}
}

func main() {
	n := flag.Int("n", 800000, "number of keys")
	reps := flag.Int("reps", 3, "repetitions on fresh data")
	seed := flag.Uint64("seed", 42, "seed")
	check := flag.Bool("check", true, "verify the result")
	flag.Parse()
	cfg := config{n: *n, reps: *reps, seed: *seed, check: *check}
	if cfg.n < 1 || cfg.reps < 1 {
		fmt.Fprintln(os.Stderr, "samplesort: -n and -reps must be positive")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, cfg) })
}
