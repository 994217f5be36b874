// repro-segappend: a loop over buckets x ranks that appends a segment of
// a received buffer when its length (from an Allgather'd table) is not
// zero. At P = 1 every segment is long (n/K); at P ranks only 1/P of them
// are non-empty, and a rank copies n/P values in all. The prediction
// charges every iteration the profile's append (n/K values) with the
// P = 1 frequency of "non-empty" (1): a rank is charged n*P values.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 4000000, "values in all")
	reps := flag.Int("reps", 10, "repetitions")
	flag.Parse()
	const K = 256
	mpi.Main(func(c *mpi.Comm) {
		rank, np := c.Rank(), c.Size()
		src := make([]float64, *n/np)
		mine := make([]int, K) // my segment lengths: non-zero for my buckets
		for b := range K {
			if b%np == rank {
				mine[b] = *n / K
			}
		}
		all := make([]int, K*np)
		mpi.Allgather(c, mine, all)
		out := make([]float64, 0, *n/np+*n/K)
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		total := 0
		for range *reps {
			out = out[:0]
			pos := 0
			for b := range K {
				for r := range np {
					if m := all[r*K+b]; b%np == rank && m > 0 {
						m = min(m, len(src)-pos)
						out = append(out, src[pos:pos+m]...)
						pos += m
					}
				}
			}
			total += len(out)
			c.Barrier()
		}
		c.EndInterval(1)
		if rank == 0 {
			fmt.Printf("%d values placed per rep on rank 0\nelapsed: %.6f s\n", total / *reps, mpi.Wtime()-t0)
		}
	})
}
