// Command sieve counts the primes in [2, N] with a block-distributed,
// segmented Sieve of Eratosthenes. Rank 0 sieves the base primes up to
// sqrt(N) and broadcasts them; every rank then sieves its block of [2, N]
// one segment at a time in a reused buffer, striking the multiples of each
// base prime from the first one inside the segment, counts its primes and
// notes its first and last prime and the largest gap inside its block. The
// counts are summed with Reduce, and the largest gap between consecutive
// primes overall comes from an Allgather of each rank's first, last and
// inner gap.
//
//	go run . -np 4 -N 100000000
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

// basePrimes returns the primes up to m with a plain sieve.
func basePrimes(m int) []int64 {
	composite := make([]bool, m+1)
	var ps []int64
	for i := 2; i <= m; i++ {
		if composite[i] {
			continue
		}
		ps = append(ps, int64(i))
		for j := i * i; j <= m; j += i {
			composite[j] = true
		}
	}
	return ps
}

// stats is what a rank found in its block.
type stats struct {
	count       int64
	first, last int64 // 0 when the block has no prime
	gap         int64 // largest gap between consecutive primes in the block
}

// note records the prime p, found in increasing order.
func (s *stats) note(p int64) {
	if s.first == 0 {
		s.first = p
	} else if p-s.last > s.gap {
		s.gap = p - s.last
	}
	s.last = p
	s.count++
}

// segmenter sieves [lo, hi) in segments of a reused buffer.
type segmenter struct {
	primes []int64
	buf    []bool
}

// sieve strikes the multiples of the base primes in [s, e) and notes the primes.
func (g *segmenter) sieve(s, e int64, st *stats) {
	buf := g.buf[:e-s]
	for i := range buf {
		buf[i] = false
	}
	for _, p := range g.primes {
		if p*p >= e {
			break
		}
		start := max(p*p, (s+p-1)/p*p)
		for m := start; m < e; m += p {
			buf[m-s] = true
		}
	}
	for i, struck := range buf {
		if !struck {
			st.note(s + int64(i))
		}
	}
}

func main() {
	n := flag.Int64("N", 180000000, "sieve [2, N]")
	seg := flag.Int("seg", 1<<18, "segment length")
	check := flag.Bool("check", true, "compare with a serial sieve on rank 0")
	flag.Parse()
	if *n < 2 || *seg < 1 {
		fmt.Fprintln(os.Stderr, "sieve: need -N >= 2 and -seg >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *seg, *check) })
}

func run(c *mpi.Comm, n int64, seg int, check bool) {
	rank, size := c.Rank(), c.Size()
	// block [lo, hi) of [2, n+1)
	span := n - 1
	lo := 2 + int64(rank)*span/int64(size)
	hi := 2 + int64(rank+1)*span/int64(size)
	root := int(math.Sqrt(float64(n)))
	for int64(root+1)*int64(root+1) <= n {
		root++
	}

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	var primes []int64
	if rank == 0 {
		primes = basePrimes(root)
	}
	np := []int64{int64(len(primes))}
	mpi.Bcast(c, np, 0)
	if rank != 0 {
		primes = make([]int64, np[0])
	}
	mpi.Bcast(c, primes, 0)

	g := &segmenter{primes: primes, buf: make([]bool, seg)}
	var st stats
	for s := lo; s < hi; s += int64(seg) {
		g.sieve(s, min(s+int64(seg), hi), &st)
	}

	total := make([]int64, 1)
	mpi.Reduce(c, []int64{st.count}, total, mpi.Sum, 0)
	ends := make([]int64, 3*size)
	mpi.Allgather(c, []int64{st.first, st.last, st.gap}, ends)
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	gap, prev := int64(0), int64(0)
	for r := 0; r < size; r++ {
		first, last, inner := ends[3*r], ends[3*r+1], ends[3*r+2]
		if first == 0 {
			continue
		}
		if prev != 0 && first-prev > gap {
			gap = first - prev
		}
		gap = max(gap, inner)
		prev = last
	}
	if rank != 0 {
		return
	}
	fmt.Printf("sieve: N=%d ranks=%d primes=%d largest gap=%d\n", n, size, total[0], gap)
	if check {
		wantCount, wantGap := serial(n)
		if wantCount != total[0] || wantGap != gap {
			fmt.Fprintf(os.Stderr, "sieve: check failed: %d primes, gap %d; serial %d primes, gap %d\n",
				total[0], gap, wantCount, wantGap)
			c.Abort(1)
		}
		fmt.Println("check: count and largest gap equal the serial sieve")
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

// serial sieves [2, n] with one bitset of odd numbers and returns the prime
// count and the largest gap.
func serial(n int64) (count, gap int64) {
	bits := make([]uint64, n/128+1) // bit i: 2i+1 is composite
	for i := int64(3); i*i <= n; i += 2 {
		if bits[i/2/64]>>(uint(i/2)%64)&1 == 0 {
			for j := i * i; j <= n; j += 2 * i {
				bits[j/2/64] |= 1 << (uint(j/2) % 64)
			}
		}
	}
	count, last := 1, int64(2)
	for i := int64(3); i <= n; i += 2 {
		if bits[i/2/64]>>(uint(i/2)%64)&1 == 0 {
			count++
			gap = max(gap, i-last)
			last = i
		}
	}
	if n < 2 {
		return 0, 0
	}
	return int64(count), gap
}
