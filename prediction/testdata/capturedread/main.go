// Command capturedread makes its buffers with a generic constructor that
// calls a closure in a loop. The closure only reads the options it
// captures (the buffers' size), so the options stay known after the
// constructor's loop: its count, and the ring index k%o.depth with it.
// A second closure counts what it makes in a captured variable, which
// the constructor's loop does write.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type options struct{ blocks, size, depth int }

// fill makes n values with mk.
func fill[T any](n int, mk func() T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = mk()
	}
	return s
}

// scaleAll scales every buffer by a closure that reads the options and
// writes only the row it is given: the loop writes the rows, and o stays
// known.
func scaleAll(bufs [][]float64, o *options) {
	scale := func(r []float64) {
		for i := range r {
			r[i] *= float64(o.size)
		}
	}
	for k := range bufs {
		scale(bufs[k])
	}
}

func main() {
	var o options
	flag.IntVar(&o.blocks, "blocks", 20, "blocks")
	flag.IntVar(&o.size, "bs", 1024, "block size")
	flag.IntVar(&o.depth, "depth", 2, "buffers")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		bufs := fill(o.depth, func() []float64 { return make([]float64, o.size) })
		made := 0
		ids := fill(o.depth, func() int { made++; return made })
		scaleAll(bufs, &o)
		sum := 0.0
		for k := range o.blocks {
			b := bufs[k%o.depth]
			b[0] += float64(ids[k%o.depth])
			sum += b[0]
		}
		if c.Rank() == 0 {
			fmt.Println(sum, made)
		}
	})
}
