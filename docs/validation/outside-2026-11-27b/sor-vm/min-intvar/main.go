// Command minintvar: the size comes from flag.IntVar into a field of a
// params struct; each rank works on n/P rows of n and trades a row of n
// with its neighbour.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type params struct{ n, steps int }

func main() {
	var p params
	flag.IntVar(&p.n, "n", 1000, "size")
	flag.IntVar(&p.steps, "steps", 20, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	rows := (rank+1)*p.n/size - rank*p.n/size
	a := make([]float64, rows*p.n)
	halo := make([]float64, p.n)
	c.BeginInterval(1)
	for range p.steps {
		for i := range a {
			a[i] = a[i]*0.5 + float64(i%7)
		}
		next, prev := (rank+1)%size, (rank+size-1)%size
		mpi.Sendrecv(c, a[:p.n], next, 0, halo, prev, 0)
	}
	c.EndInterval(1)
	if rank == 0 {
		fmt.Println(a[0], halo[0])
	}
}
