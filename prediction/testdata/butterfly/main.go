// Command butterfly runs radix-2 butterflies over each of a rank's rows
// (for half := 1; half < n; half *= 2, blocks of 2 half, half pairs each:
// n/2 log2 n pairs a row), after a pass whose inner loop runs a count
// read from the data (a sparse row's length). Profiled with a small -n and
// predicted at a larger one, the butterflies' time follows the counts and
// the data-dependent loop gets a note
// (docs/validation/outside-2026-11-28l/repro-geomloop).
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func butterflies(a []float64) {
	n := len(a)
	for half := 1; half < n; half *= 2 {
		for start := 0; start < n; start += 2 * half {
			for k := 0; k < half; k++ {
				u, v := a[start+k], a[start+k+half]*0.5
				a[start+k] = u + v
				a[start+k+half] = u - v
			}
		}
	}
}

// spread adds each element's value to the ones after it, as many as the
// element's length says (lens[i], data to the loop analysis).
func spread(a []float64, lens []int) {
	for i := range a {
		for j := 1; j <= lens[i] && i+j < len(a); j++ {
			a[i+j] += a[i] * 0.001
		}
	}
}

func main() {
	n := flag.Int("n", 1024, "row length (a power of two)")
	rows := flag.Int("rows", 32, "rows in all")
	reps := flag.Int("reps", 20, "repetitions")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		my := *rows / c.Size()
		data := make([]float64, my**n)
		lens := make([]int, len(data))
		for i := range data {
			data[i] = float64(i % 13)
			lens[i] = 1 + i%3
		}
		spread(data, lens)
		c.BeginInterval(1)
		for r := 0; r < *reps; r++ {
			for i := 0; i < my; i++ {
				butterflies(data[i**n : (i+1)**n])
			}
		}
		c.EndInterval(1)
		in, out := []float64{data[0]}, []float64{0}
		mpi.Allreduce(c, in, out, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
