// Command split arranges the ranks in rows of two and gives every row and
// every column a communicator of its own (the columns in reverse order of
// world rank), then uses them: each column's rank 0 broadcasts its world
// rank, row neighbours swap theirs, and the odd world ranks sum theirs
// on a communicator of their own.
// Every rank marks an interval whose id encodes what it saw, so that a
// test can check the communicators' ranks, sizes and messages.
package main

import (
	"flag"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	useNil := flag.Bool("nil", false, "rank 0 calls Barrier on the nil communicator it gets")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		const cols = 2
		rank := c.Rank()
		row := c.Split(rank/cols, rank%cols)
		col := c.Split(rank%cols, -rank)

		top := []int{0}
		if col.Rank() == 0 {
			top[0] = rank
		}
		mpi.Bcast(col, top, 0)

		in := []int{-1}
		peer := (row.Rank() + 1) % row.Size()
		st := mpi.Sendrecv(row, []int{rank}, peer, 3, in, mpi.AnySource, 3)

		color := rank % 2
		if color == 0 {
			color = mpi.Undefined
		}
		odd := c.Split(color, 0)
		oddID := 1000
		if odd != nil {
			mpi.Allreduce(odd, []int{rank}, []int{0}, mpi.Sum)
			oddID += 10*odd.Size() + odd.Rank()
		} else if *useNil {
			odd.Barrier()
		}
		id := ((((top[0]*100+in[0])*10+st.Source)*10+row.Rank())*10+row.Size())*10 + col.Rank()
		c.BeginInterval(id)
		c.EndInterval(id)
		c.BeginInterval(oddID)
		c.EndInterval(oddID)
	})
}
