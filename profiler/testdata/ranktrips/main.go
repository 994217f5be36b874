// Command ranktrips is a test program for the profiler: a loop whose trip
// count depends on the rank's data (rank r counts down from n in steps of
// r+1), so its trip statistics differ per rank; and the same count-down
// bounded to 50 steps, a loop with two exit tests whose outcomes the
// profile counts apart.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 120, "start of the count-down")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		steps := countDown(*n, c.Rank()+1)
		bounded := boundedCountDown(*n, c.Rank()+1, 50)
		total := make([]int64, 2)
		mpi.Allreduce(c, []int64{steps, bounded}, total, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println("steps", total[0], "bounded", total[1])
		}
	})
}

// countDown counts the steps of size step from x down to zero or below.
func countDown(x, step int) int64 {
	var steps int64
	for x > 0 {
		x -= step
		steps++
	}
	return steps
}

// boundedCountDown is countDown stopped after max steps.
func boundedCountDown(x, step, max int) int64 {
	var steps int64
	for steps < int64(max) && !(x <= 0) {
		x -= step
		steps++
	}
	return steps
}
