// Command life runs Conway's Game of Life on a -n x -n torus, the rows
// split over the ranks in blocks. The board is a slice of rows
// ([][]uint8) with a ghost row above and below each block; every
// generation exchanges the edge rows with the neighbours (Sendrecv),
// computes the next board into a second one, swaps the two, and every
// -every generations counts the live cells (Allreduce).
//
//	go run . -np 4 -n 512 -gens 200
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

// board is a rank's block of rows, ghosts included: rows[0] and
// rows[len-1] are copies of the neighbours' edge rows.
type board struct {
	rows [][]uint8
}

func newBoard(rows, n int) *board {
	b := &board{rows: make([][]uint8, rows+2)}
	for i := range b.rows {
		b.rows[i] = make([]uint8, n)
	}
	return b
}

func main() {
	n := flag.Int("n", 1024, "board size")
	gens := flag.Int("gens", 100, "generations")
	every := flag.Int("every", 10, "count the live cells every this many generations")
	flag.Parse()
	if *n < 3 || *gens < 1 || *every < 1 {
		fmt.Fprintln(os.Stderr, "life: -n must be at least 3, -gens and -every at least 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *gens, *every) })
}

func run(c *mpi.Comm, n, gens, every int) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*n/size, (rank+1)*n/size
	cur, next := newBoard(hi-lo, n), newBoard(hi-lo, n)
	cur.seed(lo)
	up, down := (rank-1+size)%size, (rank+1)%size
	live := []int64{0}
	c.BeginInterval(1)
	for g := 1; g <= gens; g++ {
		cur.exchange(c, up, down)
		next.step(cur)
		cur, next = next, cur
		if g%every == 0 {
			mpi.Allreduce(c, []int64{cur.live()}, live, mpi.Sum)
		}
	}
	c.EndInterval(1)
	if rank == 0 {
		fmt.Printf("life: n=%d ranks=%d gens=%d live=%d\n", n, size, gens, live[0])
	}
}

// seed sets a reproducible pattern: a cell lives where a hash of its
// global position is below a third of its range.
func (b *board) seed(lo int) {
	for i := 1; i < len(b.rows)-1; i++ {
		row := b.rows[i]
		for j := range row {
			h := uint32((lo+i-1)*73856093) ^ uint32(j*19349663)
			h ^= h >> 13
			h *= 0x5bd1e995
			if h%3 == 0 {
				row[j] = 1
			}
		}
	}
}

// exchange fills the ghost rows from the neighbours' edge rows.
func (b *board) exchange(c *mpi.Comm, up, down int) {
	last := len(b.rows) - 1
	mpi.Sendrecv(c, b.rows[1], up, 0, b.rows[last], down, 0)
	mpi.Sendrecv(c, b.rows[last-1], down, 1, b.rows[0], up, 1)
}

// step sets b to the generation after prev.
func (b *board) step(prev *board) {
	for i := 1; i < len(b.rows)-1; i++ {
		above, row, below := prev.rows[i-1], prev.rows[i], prev.rows[i+1]
		out := b.rows[i]
		n := len(row)
		for j := range n {
			l, r := (j-1+n)%n, (j+1)%n
			s := above[l] + above[j] + above[r] + row[l] + row[r] + below[l] + below[j] + below[r]
			if s == 3 || s == 2 && row[j] == 1 {
				out[j] = 1
			} else {
				out[j] = 0
			}
		}
	}
}

// live counts the block's live cells.
func (b *board) live() int64 {
	var k int64
	for _, row := range b.rows[1 : len(b.rows)-1] {
		for _, v := range row {
			k += int64(v)
		}
	}
	return k
}
