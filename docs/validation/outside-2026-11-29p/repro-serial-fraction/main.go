// Repro: the serial fraction "estimated by the model" from P = 1 and P = 2.
// Ranks 1..P-1 share -n units of work (rank 0 only collects, as a master
// does); with one rank, rank 0 does it all. With -tail rank 0 then does as
// much work again alone (a serial check).
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func unit(i int) float64 {
	x := float64(i)
	for k := 0; k < 2000; k++ {
		x = x*0.999 + 1
	}
	return x
}

// tail is unit's copy for the serial tail (a second caller of unit would
// meet repro-shared-callee's fault).
func tail(i int) float64 {
	x := float64(i)
	for k := 0; k < 2000; k++ {
		x = x*0.999 + 1
	}
	return x
}

func main() {
	n := flag.Int("n", 20000, "work units")
	withTail := flag.Bool("tail", false, "rank 0 does the work again alone at the end")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		workers, me := size-1, rank-1
		if size == 1 {
			workers, me = 1, 0
		}
		local, total := []float64{0}, []float64{0}
		if me >= 0 {
			for i := me * *n / workers; i < (me+1)**n/workers; i++ {
				local[0] += unit(i)
			}
		}
		mpi.Reduce(c, local, total, mpi.Sum, 0)
		if rank == 0 && *withTail {
			s := 0.0
			for i := 0; i < *n; i++ {
				s += tail(i)
			}
			total[0] -= s
		}
		if rank == 0 {
			fmt.Println("total", total[0])
		}
	})
}
