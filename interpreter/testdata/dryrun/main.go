// Command dryrun is interpreter test input: it starts its ranks unless -dry
// says to print the plan and return first.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	dry := flag.Bool("dry", false, "print the plan and return")
	flag.Parse()
	if *dry {
		fmt.Println("plan: one barrier")
		return
	}
	mpi.Main(func(c *mpi.Comm) { c.Barrier() })
}
