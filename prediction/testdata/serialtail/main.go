// Serialtail: rank 0 computes alone after the other ranks have finished
// (a serial check after the last MPI operation), from
// docs/validation/outside-2026-11-28n/repro-serial-tail. On a machine
// with a compute_slowdown table the parallel part slows down with 12
// ranks on a node, the serial tail must not: only one core works then;
// nor must the serial head of -head, while the others wait in a barrier.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func work(a []float64, reps int) float64 {
	s := 0.0
	for r := 0; r < reps; r++ {
		for i := range a {
			a[i] = a[i]*0.5 + 1
			s += a[i]
		}
	}
	return s
}

func main() {
	n := flag.Int("n", 1<<20, "elements")
	reps := flag.Int("reps", 40, "sweeps")
	tail := flag.Bool("tail", true, "rank 0 repeats the whole work alone at the end")
	head := flag.Bool("head", false, "rank 0 does the whole work alone first, the others waiting in a barrier")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		if *head {
			if rank == 0 {
				b := make([]float64, *n)
				fmt.Printf("setup %.6g\n", work(b, *reps))
			}
			c.Barrier()
		}
		a := make([]float64, *n/size)
		local := []float64{work(a, *reps)}
		all := []float64{0}
		mpi.Allreduce(c, local, all, mpi.Sum)
		if rank == 0 && *tail {
			b := make([]float64, *n)
			fmt.Printf("serial %.6g parallel %.6g\n", work(b, *reps), all[0])
		}
	})
}
