// repro-stepcount: a method counting the set cells of a block (a 2-D loop
// returning an int64, so not reduced) is stepped instruction by
// instruction when its bounds b.rows, b.cols became unknown (fault 2(a):
// update calls b.set, a method writing through b), though the cells it
// reads are unknown too. Calling b.cells[k] = v directly in update keeps
// the bounds, and the tool then costs the loop's remaining iterations.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type block struct {
	rows, cols int
	cells      []uint8
}

func (b *block) set(k int, v uint8) { b.cells[k] = v }

func (b *block) update(gen int) {
	for i := range b.rows {
		for j := range b.cols {
			b.set(i*b.cols+j, uint8((i+j+gen)%3/2))
		}
	}
}

func (b *block) live() int64 {
	var s int64
	for i := range b.rows {
		for j := range b.cols {
			s += int64(b.cells[i*b.cols+j])
		}
	}
	return s
}

func main() {
	n := flag.Int("n", 1000, "block size")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rows := *n / c.Size()
		b := &block{rows: rows, cols: *n, cells: make([]uint8, rows**n)}
		local, total := []int64{0}, []int64{0}
		c.BeginInterval(1)
		for gen := range 10 {
			b.update(gen)
			local[0] = b.live()
			mpi.Allreduce(c, local, total, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("live", total[0])
		}
	})
}
