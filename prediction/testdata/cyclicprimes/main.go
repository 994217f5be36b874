// Command cyclicprimes is test input (profiler and prediction): it counts
// the primes below n by trial division, the candidates dealt out
// cyclically (k = rank, rank+size, ...). An iteration is a fraction of a
// microsecond, too fine for a tick inside the timed runs, and its cost
// depends on k: an even k stops at the first divisor, an odd one goes on
// up to its square root. With two ranks, rank 1 gets the odd candidates
// and nearly all of the work.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 200000, "count the primes below n")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		c.BeginInterval(1)
		count := 0
		for k := c.Rank(); k < *n; k += c.Size() {
			prime := k >= 2
			for d := 2; d*d <= k; d++ {
				if k%d == 0 {
					prime = false
					break
				}
			}
			if prime {
				count++
			}
		}
		total := []int{0}
		mpi.Reduce(c, []int{count}, total, mpi.Sum, 0)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(total[0])
		}
	})
}
