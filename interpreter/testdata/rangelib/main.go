// Command rangelib ranges over the standard library's iterators in the
// ways the interpreter tells apart: a body it charges per element (a
// slice's, a map's), one that may break early, one that calls MPI. Rank r
// has 1000 (r+1) elements; the slice's header must stay known after a
// body that writes its elements.
package main

import (
	"maps"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	mpi.Main(func(c *mpi.Comm) {
		x := make([]float64, 1000*(c.Rank()+1))
		y := []int{1, 2, 3}
		m := map[int]int{1: 1, 2: 2, 3: 3}
		s := 0.0
		for i, v := range slices.All(x) {
			x[i] = v + 1
			s += v
		}
		for k := range maps.Keys(m) {
			s += float64(k)
		}
		for v := range slices.Values(y) {
			if v > 1 {
				break
			}
		}
		for range slices.Values(y) {
			c.Barrier()
		}
		if len(x) != 1000*(c.Rank()+1) {
			panic("x lost its length")
		}
		out := []float64{0}
		mpi.Allreduce(c, []float64{s}, out, mpi.Sum)
	})
}
