// Command pollhelper is test input (profiler): with two ranks or more,
// rank 0 collects its workers' results by polling, once through helpers
// (polled, a generic function, calls arrived) and once with Test in the
// loop itself; with one rank it works
// alone, so a profile at one rank reaches neither polling loop. How often
// a poll fails depends on how the ranks wait for each other, not on the
// program: the profile must not take those loops' counts from its
// contention runs, while the workers' compute, reached only with two
// ranks as well, it must.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

// work is n rounds of a generator: compute that takes as long at any
// rank count.
func work(n int) float64 {
	x := uint64(n) | 1
	s := 0.0
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		s += float64(x>>40) * 1e-9
	}
	return s
}

// arrived polls req once.
func arrived(req *mpi.Request) bool {
	_, ok := req.Test()
	return ok
}

// polled polls req once, through arrived, for a receive of T: a generic
// function whose instance the polling loop calls.
func polled[T any](req *mpi.Request) bool { return arrived(req) }

func main() {
	n := flag.Int("n", 2000000, "rounds of work in all")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		p, me := c.Size(), c.Rank()
		if p == 1 {
			fmt.Printf("%.3f\n", work(*n))
			return
		}
		if me != 0 {
			mpi.Send(c, []float64{work(*n / (p - 1))}, 0, 0)
			mpi.Send(c, []float64{work(*n / (p - 1))}, 0, 1)
			return
		}
		sum, polls := 0.0, 0
		for w := 1; w < p; w++ {
			got := []float64{0}
			req := mpi.Irecv(c, got, w, 0)
			for !polled[float64](req) {
				polls++
			}
			sum += got[0]
		}
		for w := 1; w < p; w++ {
			got := []float64{0}
			req := mpi.Irecv(c, got, w, 1)
			for {
				if _, ok := req.Test(); ok {
					break
				}
				polls++
			}
			sum += got[0]
		}
		fmt.Printf("%.3f %v\n", sum, polls > 0)
	})
}
