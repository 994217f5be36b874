// Command wavefront fills an n x m table by the recurrence of a global
// sequence alignment score (each cell from its upper, left and
// upper-left neighbours), the columns split over the ranks. Rank r can
// start a block of rows only once rank r-1 has finished it and sent its
// last column there: the ranks work as a pipeline, each a block behind
// the one before.
//
//	go run . -np 4 -n 4000 -m 4000 -block 100
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 6000, "rows (length of the first sequence)")
	m := flag.Int("m", 6000, "columns (length of the second sequence)")
	block := flag.Int("block", 50, "rows per pipeline step")
	check := flag.Bool("check", true, "compare the score with a serial run on rank 0")
	flag.Parse()
	if *n < 1 || *m < 1 || *block < 1 {
		fmt.Fprintln(os.Stderr, "wavefront: -n, -m and -block must be at least 1")
		os.Exit(2)
	}
	a, b := sequence(*n, 7), sequence(*m, 11)
	mpi.Main(func(c *mpi.Comm) { run(c, a, b, *block, *check) })
}

// sequence is a reproducible string of n letters over ACGT.
func sequence(n int, seed uint32) []byte {
	s := make([]byte, n)
	x := seed
	for i := range s {
		x = x*1664525 + 1013904223
		s[i] = "ACGT"[x>>30]
	}
	return s
}

func run(c *mpi.Comm, a, b []byte, block int, check bool) {
	rank, size := c.Rank(), c.Size()
	n, m := len(a), len(b)
	if m < size {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "wavefront: %d columns for %d ranks\n", m, size)
		}
		c.Abort(2)
	}
	lo, hi := span(rank, size, m)
	w := hi - lo
	// prev and cur are rows of the rank's columns, with the column left
	// of them (from rank-1, or the table's edge) at index 0.
	prev, cur := make([]int32, w+1), make([]int32, w+1)
	for j := range prev {
		prev[j] = -int32(lo+j) * gap
	}
	left := make([]int32, block+1) // the left neighbour's last column for a block, with the row above it first
	right := make([]int32, block+1)
	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for i0 := 0; i0 < n; i0 += block {
		rows := min(block, n-i0)
		if rank > 0 {
			mpi.Recv(c, left[:rows+1], rank-1, i0)
		} else {
			for k := range rows + 1 {
				left[k] = -int32(i0+k) * gap
			}
		}
		right[0] = prev[w]
		for k := 1; k <= rows; k++ {
			fillRow(cur, prev, a[i0+k-1], b[lo:hi], left[k])
			right[k] = cur[w]
			prev, cur = cur, prev
		}
		if rank < size-1 {
			mpi.Send(c, right[:rows+1], rank+1, i0)
		}
	}
	c.EndInterval(1)
	score := []int32{prev[w]}
	// The last rank holds the table's corner; the others send nothing.
	if size > 1 {
		if rank == size-1 {
			mpi.Send(c, score, 0, scoreTag)
		}
		if rank == 0 {
			mpi.Recv(c, score, size-1, scoreTag)
		}
	}
	elapsed := mpi.Wtime() - t0
	if rank != 0 {
		return
	}
	fmt.Printf("wavefront: n=%d m=%d ranks=%d score=%d\n", n, m, size, score[0])
	if check {
		if want := serial(a, b); want != score[0] {
			fmt.Fprintf(os.Stderr, "wavefront: check failed: score %d, serial %d\n", score[0], want)
			c.Abort(1)
		}
		fmt.Println("check: the score equals the serial one")
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

// scoreTag marks the message carrying the final score (the blocks' tags
// are their first rows).
const scoreTag = 1 << 30

// span is rank's share [lo, hi) of m columns.
func span(rank, size, m int) (lo, hi int) {
	return rank * m / size, (rank + 1) * m / size
}
