// Command farm: rank 0 hands out shapes, the others compute their areas.
package main

import (
	"flag"
	"fmt"

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
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) { run(c, *items, *samples) })
}

func run(c *mpi.Comm, items, samples int) {
	c.Barrier()
	t0 := mpi.Wtime()
	var total float64
	if c.Size() == 1 {
		for k := 0; k < items; k++ {
			total += shapes.Make(k, 7).Area(samples)
		}
	} else if c.Rank() == 0 {
		total = master(c, items)
	} else {
		worker(c, samples)
	}
	c.Barrier()
	if c.Rank() == 0 {
		fmt.Printf("total %.3f\n", total)
		fmt.Printf("elapsed: %.6f s\n", mpi.Wtime()-t0)
	}
}

func master(c *mpi.Comm, items int) float64 {
	workers := c.Size() - 1
	next := 0
	res := make([][]float64, workers)
	reqs := make([]*mpi.Request, workers)
	for w := 0; w < workers; w++ {
		res[w] = make([]float64, 1)
		if next < items {
			mpi.Send(c, []int{next}, w+1, tagWork)
			next++
			reqs[w] = mpi.Irecv(c, res[w], w+1, tagDone)
		}
	}
	total := 0.0
	active := 0
	for _, r := range reqs {
		if r != nil {
			active++
		}
	}
	for active > 0 {
		for w, r := range reqs {
			if r == nil {
				continue
			}
			if _, ok := r.Test(); !ok {
				continue
			}
			total += res[w][0]
			if next < items {
				mpi.Send(c, []int{next}, w+1, tagWork)
				next++
				reqs[w] = mpi.Irecv(c, res[w], w+1, tagDone)
			} else {
				reqs[w] = nil
				active--
			}
		}
	}
	for w := 0; w < workers; w++ {
		mpi.Send(c, []int{-1}, w+1, tagStop)
	}
	return total
}

func worker(c *mpi.Comm, samples int) {
	buf := make([]int, 1)
	counts := [2]int{}
	for {
		st := mpi.Recv(c, buf, 0, mpi.AnyTag)
		if st.Tag == tagStop {
			break
		}
		s := shapes.Make(buf[0], 7)
		counts[shapes.Kind(s)]++
		mpi.Send(c, []float64{s.Area(samples)}, 0, tagDone)
	}
	_ = counts
}
