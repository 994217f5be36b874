// Command bcastparams: rank 0 reads the problem size from a file (-params)
// and broadcasts it; every rank then sums its share of n terms. The
// interpreter cannot read the file, so the size is unknown at the root
// until the profile supplies what the Bcast carried in the profiled run
// (TestBroadcastFromFileFollowsProfile).
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	path := flag.String("params", "params.txt", "file holding \"n <size>\"")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		p := []int{0}
		if c.Rank() == 0 {
			data, err := os.ReadFile(*path)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			f := strings.Fields(string(data))
			if len(f) != 2 || f[0] != "n" {
				fmt.Fprintln(os.Stderr, "bad parameter file")
				os.Exit(1)
			}
			p[0], _ = strconv.Atoi(f[1])
		}
		mpi.Bcast(c, p, 0)
		n := p[0]
		lo, hi := c.Rank()*n/c.Size(), (c.Rank()+1)*n/c.Size()
		c.BeginInterval(1)
		s := 0.0
		for i := lo; i < hi; i++ {
			s += 1 / (1 + float64(i)*float64(i))
		}
		c.EndInterval(1)
		out := []float64{0}
		mpi.Reduce(c, []float64{s}, out, mpi.Sum, 0)
		if c.Rank() == 0 {
			fmt.Printf("%.6f\n", out[0])
		}
	})
}
