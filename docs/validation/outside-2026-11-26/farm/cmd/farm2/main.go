// Command farm2: rank 0 hands out shapes and takes results from any worker.
package main

import (
	"flag"
	"fmt"
	"math/rand"

	"example.com/farm/shapes"
	"github.com/parpredict/parpredict/mpi"
)

const (
	tagWork = 1
	tagStop = 2
	tagDone = 3
)

func main() {
	items := flag.Int("items", 400, "work items")
	samples := flag.Int("samples", 20000, "samples per item")
	seed := flag.Int64("seed", 1, "random seed of the item sizes")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) { run(c, *items, *samples, *seed) })
}

func run(c *mpi.Comm, items, samples int, seed int64) {
	c.BeginInterval(1)
	var total float64
	if c.Rank() == 0 {
		rng := rand.New(rand.NewSource(seed))
		sizes := make([]int, items)
		for i := range sizes {
			sizes[i] = samples/2 + rng.Intn(samples)
		}
		total = master(c, sizes)
	} else {
		worker(c)
	}
	c.EndInterval(1)
	if c.Rank() == 0 {
		fmt.Printf("total %.3f\n", total)
	}
}

func master(c *mpi.Comm, sizes []int) float64 {
	workers := c.Size() - 1
	total := 0.0
	if workers == 0 {
		for k, n := range sizes {
			total += shapes.Make(k, 7).Area(n)
		}
		return total
	}
	next, out := 0, 0
	for w := 1; w <= workers && next < len(sizes); w++ {
		mpi.Send(c, []int{next, sizes[next]}, w, tagWork)
		next++
		out++
	}
	res := []float64{0}
	for out > 0 {
		st := mpi.Recv(c, res, mpi.AnySource, tagDone)
		total += res[0]
		out--
		if next < len(sizes) {
			mpi.Send(c, []int{next, sizes[next]}, st.Source, tagWork)
			next++
			out++
		}
	}
	for w := 1; w <= workers; w++ {
		mpi.Send(c, []int{-1, 0}, w, tagStop)
	}
	return total
}

func worker(c *mpi.Comm) {
	buf := make([]int, 2)
	for {
		st := mpi.Recv(c, buf, 0, mpi.AnyTag)
		if st.Tag == tagStop {
			return
		}
		s := shapes.Make(buf[0], 7)
		var a float64
		switch v := s.(type) {
		case shapes.Disc:
			a = v.Area(buf[1])
		case shapes.Box:
			a = v.Area(buf[1]) / 2
		}
		mpi.Send(c, []float64{a}, 0, tagDone)
	}
}
