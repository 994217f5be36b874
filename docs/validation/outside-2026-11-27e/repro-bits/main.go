// Command repro-bits: a hypercube exchange whose stage count comes from
// math/bits (d := bits.TrailingZeros(uint(size))). Each of d+1 rounds does
// some work, d of them a Sendrecv with rank ^ (1<<k). With -plain the stage count is
// computed by a loop instead (for 1<<d < size { d++ }).
package main

import (
	"flag"
	"fmt"
	"math/bits"

	"github.com/parpredict/parpredict/mpi"
)

func work(x []float64) {
	for i := range x {
		x[i] = x[i]*0.999 + 1
	}
}

func main() {
	m := flag.Int("m", 1<<19, "elements per rank")
	plain := flag.Bool("plain", false, "count the stages with a loop, not math/bits")
	flag.Bool("check", false, "unused")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		x, y := make([]float64, *m), make([]float64, *m)
		var d int
		if *plain {
			for 1<<d < size {
				d++
			}
		} else {
			d = bits.TrailingZeros(uint(size))
		}
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		work(x)
		for k := 0; k <= d; k++ { // d+1 rounds of work (so that P = 1 runs it too), d exchanges
			for r := 0; r < 20; r++ {
				work(x)
			}
			if k < d {
				mpi.Sendrecv(c, x, rank^(1<<k), 0, y, rank^(1<<k), 0)
			}
		}
		c.EndInterval(1)
		c.Barrier()
		if rank == 0 {
			fmt.Printf("stages %d\nelapsed: %.6f s\n", d, mpi.Wtime()-t0)
		}
	})
}
