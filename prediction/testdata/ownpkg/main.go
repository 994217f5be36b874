// Command ownpkg is prediction test input: its kernel lives in a package
// of its own (kern), which the model must treat as the program's code.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
	"github.com/parpredict/parpredict/prediction/testdata/ownpkg/kern"
)

func main() {
	n := flag.Int("n", 1000000, "terms")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		part := *n / c.Size()
		s := kern.Work(part)
		out := []float64{0}
		mpi.Allreduce(c, []float64{s}, out, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println(out[0])
		}
	})
}
