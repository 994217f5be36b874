// repro-unpack: rank 0 unpacks a gathered n x n board block by block: for
// each rank r, rows span(n, P, r), all columns. The inner loops' counts
// are taken at the 1-rank profile's mean per entry (n*n), so P entries
// cost P*n*n iterations instead of n*n.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type params struct{ n int }

func span(n, k, i int) (lo, hi int) { return i * n / k, (i + 1) * n / k }

func main() {
	var p params
	flag.IntVar(&p.n, "n", 1024, "board size")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		size := c.Size()
		lo, hi := span(p.n, size, c.Rank())
		mine := make([]uint8, (hi-lo)*p.n)
		for i := range mine {
			mine[i] = uint8(i % 7)
		}
		var gathered, board []uint8
		if c.Rank() == 0 {
			gathered, board = make([]uint8, p.n*p.n), make([]uint8, p.n*p.n)
		}
		mpi.Gather(c, mine, gathered, 0)
		if c.Rank() != 0 {
			return
		}
		k := 0
		for r := range size {
			a0, a1 := span(p.n, size, r)
			for i := a0; i < a1; i++ {
				for j := 0; j < p.n; j++ {
					board[j*p.n+i] = gathered[k] // transposed, as a user might
					k++
				}
			}
		}
		fmt.Println(board[p.n+1])
	})
}
