// Command stepwise formats numbers in a loop: fmt.Sprint is a library
// call the reduction plan cannot prove pure, so the loop is not a
// reduced nest and the interpreter runs it iteration by iteration.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

// digits is how many characters the numbers from lo to hi take printed.
func digits(lo, hi int) int {
	n := 0
	for x := lo; x < hi; x++ {
		n += len(fmt.Sprint(x))
	}
	return n
}

func main() {
	n := flag.Int("n", 100000, "numbers")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		lo, hi := c.Rank()**n/c.Size(), (c.Rank()+1)**n/c.Size()
		local, total := []int{digits(lo, hi)}, []int{0}
		mpi.Allreduce(c, local, total, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println("digits:", total[0])
		}
	})
}
