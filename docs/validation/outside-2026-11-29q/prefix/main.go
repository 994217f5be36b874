// Command prefix computes, for each of -arrays arrays of -n int64 values
// spread in blocks over the ranks, the inclusive prefix sum and the stream
// compaction of the elements that pass a filter (their global positions, in
// order). Both are three-phase parallel scans: a local pass, an Exscan of
// the blocks' totals (the sum for the scan, the count for the compaction),
// and a local fix-up that adds the offset from the ranks before.
//
//	go run . -np 4 -n 4000000 -arrays 8
//
// -check has rank 0 recompute every array serially and compare a checksum
// of the scan and the compaction (reduced to rank 0) with it. The last line
// is "elapsed: <seconds> s".
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 4000000, "elements per array")
	arrays := flag.Int("arrays", 8, "arrays to scan")
	check := flag.Bool("check", true, "recompute serially on rank 0 and compare")
	flag.Parse()
	if *n < 1 || *arrays < 1 {
		fmt.Fprintln(os.Stderr, "prefix: need -n >= 1 and -arrays >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *arrays, *check) })
}

// value is element i of array a: a cheap hash in 0..999.
func value(a, i int) int64 {
	x := uint64(i)*0x9E3779B97F4A7C15 + uint64(a)*0xBF58476D1CE4E5B9
	x ^= x >> 31
	x *= 0x94D049BB133111EB
	x ^= x >> 29
	return int64(x % 1000)
}

// keep is the compaction's filter.
func keep(x int64) bool { return x%7 == 3 || x > 950 }

func run(c *mpi.Comm, n, arrays int, check bool) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*n/size, (rank+1)*n/size
	m := hi - lo
	x := make([]int64, m)
	scan := make([]int64, m)
	out := make([]int64, m) // global positions of the kept elements
	sums := make([]int64, 2*arrays)

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for a := range arrays {
		for i := range x {
			x[i] = value(a, lo+i)
		}
		// Phase 1: local inclusive scan and local count of kept elements.
		var s, cnt int64
		for i, v := range x {
			s += v
			scan[i] = s
			if keep(v) {
				cnt++
			}
		}
		// Phase 2: what the ranks before this one hold.
		mine := []int64{s, cnt}
		before := []int64{0, 0}
		mpi.Exscan(c, mine, before, mpi.Sum)
		if rank == 0 {
			before[0], before[1] = 0, 0
		}
		// Phase 3: fix-up of the scan; the compaction writes its elements.
		for i := range scan {
			scan[i] += before[0]
		}
		k := 0
		for i, v := range x {
			if keep(v) {
				out[k] = int64(lo + i)
				k++
			}
		}
		// Checksums: the scan's last value on the last rank is the array's
		// total; the compaction's positions sum with their output index.
		var cs int64
		for j := range k {
			cs += out[j] * (before[1] + int64(j) + 1) % 1000003
		}
		sums[2*a] = 0
		if m > 0 {
			sums[2*a] = scan[m-1] % 1000003 * int64(rank+1)
		}
		sums[2*a+1] = cs
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	total := make([]int64, 2*arrays)
	mpi.Reduce(c, sums, total, mpi.Sum, 0)
	if rank == 0 {
		fmt.Printf("prefix: n=%d arrays=%d ranks=%d checksum[0]=%d,%d\n", n, arrays, size, total[0], total[1])
		if check {
			for a := range arrays {
				w0, w1 := serial(a, n, size)
				if w0 != total[2*a] || w1 != total[2*a+1] {
					fmt.Fprintf(os.Stderr, "prefix: check failed for array %d: %d,%d, serial %d,%d\n", a, total[2*a], total[2*a+1], w0, w1)
					c.Abort(1)
				}
			}
			fmt.Println("check: every array's checksums equal the serial ones")
		}
		fmt.Printf("elapsed: %.4f s\n", elapsed)
	}
}

// serial computes array a's checksums as the ranks do, from one serial scan.
func serial(a, n, size int) (int64, int64) {
	var s, cnt, cs, c0 int64
	r := 0
	for i := range n {
		v := value(a, i)
		s += v
		if keep(v) {
			cnt++
			cs += int64(i) * cnt % 1000003
		}
		for r < size && (r+1)*n/size-1 <= i {
			if r*n/size < (r+1)*n/size { // rank r's block is not empty
				c0 += s % 1000003 * int64(r+1)
			}
			r++
		}
	}
	return c0, cs
}
