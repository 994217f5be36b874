// Command colupdate computes escape times over the rows of a band that
// each rank owns, a row's cost following the data (the middle rows
// cross the set), with one method over a range of rows and columns. In
// -form whole it is called once per step over every column; in -form
// column it is also called twice per step over one column of the same
// rows, as a stencil updates a block's interior and then its edges. The
// column calls are a few hundredths of the work: both forms take about
// the same time at every P.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type band struct {
	n, maxIter int
	out        []int
}

func (b *band) escape(i, j int) int {
	cx := -2 + 2.5*float64(j)/float64(b.n)
	cy := -1.25 + 2.5*float64(i)/float64(b.n)
	x, y := 0.0, 0.0
	k := 0
	for ; k < b.maxIter && x*x+y*y <= 4; k++ {
		x, y = x*x-y*y+cx, 2*x*y+cy
	}
	return k
}

// update computes rows i0..i1-1, columns j0..j1-1.
func (b *band) update(i0, i1, j0, j1 int) {
	for i := i0; i < i1; i++ {
		for j := j0; j < j1; j++ {
			b.out[i*b.n+j] = b.escape(i, j)
		}
	}
}

func main() {
	form := flag.String("form", "whole", "whole or column")
	n := flag.Int("n", 192, "rows and columns")
	steps := flag.Int("steps", 4, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		lo, hi := rank**n/size, (rank+1)**n/size
		b := &band{n: *n, maxIter: 400, out: make([]int, *n**n)}
		first := []int64{0}
		c.BeginInterval(1)
		for range *steps {
			b.update(lo, hi, 0, *n)
			if *form == "column" {
				b.update(lo, hi, *n/2, *n/2+1)
				b.update(lo, hi, *n/2, *n/2+1)
			}
			// A step ends with a collective, as a solver's does.
			mpi.Allreduce(c, []int64{int64(b.out[lo**n])}, first, mpi.Max)
		}
		c.EndInterval(1)
		sum := 0
		for _, v := range b.out {
			sum += v
		}
		total := []int64{0}
		mpi.Allreduce(c, []int64{int64(sum)}, total, mpi.Sum)
		if rank == 0 {
			fmt.Printf("%s: %d\n", *form, total[0])
		}
	})
}
