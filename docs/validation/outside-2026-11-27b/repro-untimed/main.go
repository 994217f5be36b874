// repro-untimed: a kernel called for each of -rows rows of -m elements,
// -reps times. Its calls take about 1 us at -m 1000, too short for the
// profiler's timer budget, so the kernel stays untimed and its time is
// charged per call, at the profiled row length: `predict speedup .
// --profile-args "-m 100" -- -m 1000` predicts about a tenth of the time.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func axpy(y, x []float64, a float64) {
	for j := range y {
		y[j] += a * x[j]
	}
}

func main() {
	rows := flag.Int("rows", 2000, "rows")
	m := flag.Int("m", 1000, "row length")
	reps := flag.Int("reps", 100, "sweeps over the rows")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		mine := *rows / c.Size()
		x := make([]float64, *m)
		y := make([][]float64, mine)
		for i := range y {
			y[i] = make([]float64, *m)
		}
		c.BeginInterval(1)
		for range *reps {
			for i := range y {
				axpy(y[i], x, 0.5)
			}
		}
		sum := []float64{float64(len(y))}
		mpi.Allreduce(c, sum, sum[:1:1], mpi.Sum)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(sum[0])
		}
	})
}
