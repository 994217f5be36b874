// Command nqueens counts the solutions of the N-queens problem by recursive
// backtracking over bitmasks. The search is split at the first two rows: each
// valid placement of the queens in rows 0 and 1 is a prefix, and the search
// below a prefix is a task whose size depends on the prefix.
//
// Phase 1 deals the prefixes round-robin over the ranks (static). Phase 2
// counts again with rank 0 as a master handing prefixes to workers on demand
// (dynamic); with one rank, rank 0 does all of them itself. Both counts are
// summed with Reduce.
//
//	go run . -np 4 -n 12
package main

import (
	"flag"
	"fmt"
	"math/bits"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

const (
	tagAsk  = 1
	tagTask = 2
)

// known are the published solution counts.
var known = map[int]int64{
	4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200,
	13: 73712, 14: 365596, 15: 2279184,
}

// board is the search state: the full mask of n columns.
type board struct {
	n    int
	full uint64
}

// prefix is one placement of the first two rows' queens.
type prefix struct {
	c0, c1 int
}

// solve counts completions given the columns and diagonals attacked in the
// current row.
func (b *board) solve(cols, d1, d2 uint64) int64 {
	if cols == b.full {
		return 1
	}
	var count int64
	free := b.full &^ (cols | d1 | d2)
	for free != 0 {
		bit := free & -free
		free &^= bit
		count += b.solve(cols|bit, ((d1|bit)<<1)&b.full, (d2|bit)>>1)
	}
	return count
}

// prefixes lists the valid two-row prefixes in a fixed order.
func (b *board) prefixes() []prefix {
	var ps []prefix
	for c0 := range b.n {
		for c1 := range b.n {
			if c1 == c0 || c1 == c0-1 || c1 == c0+1 {
				continue
			}
			ps = append(ps, prefix{c0, c1})
		}
	}
	return ps
}

// count runs the search below prefix p.
func (b *board) count(p prefix) int64 {
	bit0, bit1 := uint64(1)<<p.c0, uint64(1)<<p.c1
	cols := bit0 | bit1
	d1 := ((bit0<<1 | bit1) << 1) & b.full
	d2 := (bit0>>1 | bit1) >> 1
	return b.solve(cols, d1, d2)
}

// static deals the prefixes round-robin.
func static(c *mpi.Comm, b *board, ps []prefix) int64 {
	rank, size := c.Rank(), c.Size()
	var mine int64
	for k, p := range ps {
		if k%size != rank {
			continue
		}
		mine += b.count(p)
	}
	return mine
}

// master hands out prefix indices until none are left, then tells every
// worker to stop (index -1). With no workers it searches itself.
func master(c *mpi.Comm, b *board, ps []prefix) int64 {
	size := c.Size()
	if size == 1 {
		var total int64
		for _, p := range ps {
			total += b.count(p)
		}
		return total
	}
	next, stopped := 0, 0
	ask := make([]int64, 1)
	task := make([]int64, 1)
	for stopped < size-1 {
		st := mpi.Recv(c, ask, mpi.AnySource, tagAsk)
		if next < len(ps) {
			task[0] = int64(next)
			next++
		} else {
			task[0] = -1
			stopped++
		}
		mpi.Send(c, task, st.Source, tagTask)
	}
	return 0
}

// worker asks for tasks until told to stop.
func worker(c *mpi.Comm, b *board, ps []prefix) int64 {
	var mine int64
	ask := []int64{0}
	task := make([]int64, 1)
	for {
		mpi.Send(c, ask, 0, tagAsk)
		mpi.Recv(c, task, 0, tagTask)
		if task[0] < 0 {
			return mine
		}
		mine += b.count(ps[task[0]])
	}
}

func run(c *mpi.Comm, n int, check bool) {
	rank := c.Rank()
	b := &board{n: n, full: 1<<n - 1}
	ps := b.prefixes()
	send, sum1, sum2 := make([]int64, 1), make([]int64, 1), make([]int64, 1)

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	send[0] = static(c, b, ps)
	mpi.Reduce(c, send, sum1, mpi.Sum, 0)
	if rank == 0 {
		send[0] = master(c, b, ps)
	} else {
		send[0] = worker(c, b, ps)
	}
	mpi.Reduce(c, send, sum2, mpi.Sum, 0)
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if rank != 0 {
		return
	}
	fmt.Printf("nqueens: n=%d ranks=%d prefixes=%d static=%d dynamic=%d\n", n, c.Size(), len(ps), sum1[0], sum2[0])
	if check {
		want, ok := known[n]
		if !ok {
			want = sum1[0] // no table entry: compare the phases only
		}
		if sum1[0] != want || sum2[0] != want {
			fmt.Fprintf(os.Stderr, "nqueens: check failed: static %d, dynamic %d, want %d\n", sum1[0], sum2[0], want)
			c.Abort(1)
		}
		fmt.Printf("check: both phases give %d solutions on %d columns\n", want, bits.OnesCount64(b.full))
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

func main() {
	n := flag.Int("n", 14, "board size (4..15)")
	check := flag.Bool("check", true, "compare the counts with the known ones")
	flag.Parse()
	if *n < 4 || *n > 15 {
		fmt.Fprintln(os.Stderr, "nqueens: -n must be in 4..15")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *check) })
}
