// Repro: radix-2 butterfly loops (for half := 1; half < n; half *= 2 and
// for start := 0; start < n; start += 2*half) are "trips: unknown
// [data-dependent]"; with --profile-args at a smaller n their counts are
// taken from the small run, silently, so the prediction at the big n is
// far too short.
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

func main() {
	n := flag.Int("n", 1024, "row length (a power of two)")
	rows := flag.Int("rows", 64, "rows in all")
	reps := flag.Int("reps", 20, "repetitions")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		my := *rows / c.Size()
		data := make([]float64, my**n)
		for i := range data {
			data[i] = float64(i % 13)
		}
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
