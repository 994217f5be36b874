// repro-methodstore: a pointer-receiver method that writes one element of
// a slice field (b.next[i] = ...), called in a reduced loop, makes the
// receiver's other fields unknown: the next entry's count b.rows (the
// rank's share, n/P) is then taken from the 1-rank profile at every P.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type block struct {
	rows      int
	cur, next []float64
}

func (b *block) rule(i int) {
	b.next[i] = 0.5*b.cur[i] + 0.25
}

func (b *block) update() {
	for i := range b.rows {
		b.rule(i)
	}
	b.cur, b.next = b.next, b.cur
}

func main() {
	n := flag.Int("n", 4000000, "cells over all ranks")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rows := *n / c.Size()
		b := &block{rows: rows, cur: make([]float64, rows), next: make([]float64, rows)}
		local, total := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for range 20 {
			b.update()
			local[0] = b.cur[0]
			mpi.Allreduce(c, local, total, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(total[0])
		}
	})
}
