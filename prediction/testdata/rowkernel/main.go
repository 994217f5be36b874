// Command rowkernel adds a vector to each of a rank's rows, -reps times:
// the rows are made one by one (a [][]float64), and the kernel's calls
// are too short for the profiler's timers at a small -n, so that its time
// is part of the row loop's own time in the profile.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func addRow(y, x []float64) {
	for j := range y {
		y[j] += x[j]
	}
}

func main() {
	n := flag.Int("n", 64, "row length")
	rows := flag.Int("rows", 4000, "rows in all")
	reps := flag.Int("reps", 20, "sweeps over the rows")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		x := make([]float64, *n)
		for j := range x {
			x[j] = float64(j)
		}
		y := make([][]float64, *rows/c.Size())
		for i := range y {
			y[i] = make([]float64, *n)
		}
		c.BeginInterval(1)
		for range *reps {
			for i := range y {
				addRow(y[i], x)
			}
		}
		c.EndInterval(1)
		sum := []float64{0}
		for _, row := range y {
			sum[0] += row[len(row)-1]
		}
		mpi.Allreduce(c, sum, sum, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println("rowkernel:", sum[0])
		}
	})
}
