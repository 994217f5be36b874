// Command tasks is a master-worker program: rank 0 hands out tasks of
// four costs on request, and -1 when there are none left; one rank alone
// does them all. The workers' loops end on the value they receive.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func task(id, n int) float64 {
	s := 0.0
	for i := 0; i < n*(1+id%4); i++ {
		s += math.Sin(float64(i))
	}
	return s
}

func main() {
	tasks := flag.Int("tasks", 64, "tasks")
	n := flag.Int("n", 20000, "work per task unit")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		c.BeginInterval(1)
		if size == 1 {
			s := 0.0
			for t := 0; t < *tasks; t++ {
				s += task(t, *n)
			}
			fmt.Println("sum", s)
		} else if rank == 0 {
			next, done := 0, 0
			buf := []int{0}
			for done < size-1 {
				st := mpi.Recv(c, buf, mpi.AnySource, 1)
				if next < *tasks {
					buf[0] = next
					next++
				} else {
					buf[0] = -1
					done++
				}
				mpi.Send(c, buf, st.Source, 2)
			}
		} else {
			buf := []int{0}
			res := 0.0
			for {
				mpi.Send(c, buf, 0, 1)
				mpi.Recv(c, buf, 0, 2)
				if buf[0] < 0 {
					break
				}
				res += task(buf[0], *n)
			}
			_ = res
		}
		c.EndInterval(1)
	})
}
