// Command tasks hands out numbered tasks from rank 0 to workers that ask
// for them, a negative number meaning "stop", after rank 0 broadcast how
// many there are: the workers' loops end only if the numbers they receive
// are the ones sent.
package main

import "github.com/parpredict/parpredict/mpi"

func main() {
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		count := []int{0}
		if rank == 0 {
			count[0] = 10
		}
		mpi.Bcast(c, count, 0)
		if rank == 0 {
			next, done := 0, 0
			buf := []int{0}
			for done < size-1 {
				st := mpi.Recv(c, buf, mpi.AnySource, 1)
				if next < count[0] {
					buf[0] = next
					next++
				} else {
					buf[0] = -1
					done++
				}
				mpi.Send(c, buf, st.Source, 2)
			}
			return
		}
		buf := []int{0}
		for k := 0; k <= count[0]; k++ { // at most count tasks and the stop
			mpi.Send(c, buf, 0, 1)
			mpi.Recv(c, buf, 0, 2)
			if buf[0] < 0 {
				break
			}
		}
	})
}
