// Command ring is interpreter test input: a ring exchange with a compute
// loop and a residual Allreduce per step.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 10, "elements per rank")
	steps := flag.Int("steps", 3, "time steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		buf := make([]float64, *n)
		halo := make([]float64, *n)
		for s := 0; s < *steps; s++ {
			work(buf)
			if size > 1 {
				st := mpi.Sendrecv(c, buf, (rank+1)%size, 0, halo, (rank-1+size)%size, 0)
				if st.Count != *n {
					panic("short message")
				}
			}
			sum := []float64{0}
			mpi.Allreduce(c, buf[:1], sum, mpi.Sum)
		}
		if rank == 0 {
			fmt.Println("done")
		}
	})
}

func work(b []float64) {
	for i := range b {
		b[i] = b[i]*0.5 + 1
	}
}
