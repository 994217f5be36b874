// Command collectives is interpreter test input: reductions and gathers
// of values every rank knows, checked against what MPI gives (the program
// runs for real without a failed check). In the interpreter every check
// must be on known values.
package main

import "github.com/parpredict/parpredict/mpi"

func main() {
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		mine := rank + 1 // rows of this rank
		total := []int{0}
		mpi.Allreduce(c, []int{mine}, total, mpi.Sum)
		if total[0] != size*(size+1)/2 {
			panic("wrong: Allreduce Sum")
		}
		ext := []float64{0, 0}
		mpi.Allreduce(c, []float64{float64(rank), -float64(rank)}, ext, mpi.Max)
		if ext[0] != float64(size-1) || ext[1] != 0 {
			panic("wrong: Allreduce Max")
		}
		counts := make([]int, size)
		mpi.Allgather(c, []int{mine}, counts)
		displs := make([]int, size)
		for r := 1; r < size; r++ {
			displs[r] = displs[r-1] + counts[r-1]
		}
		if counts[size-1] != size || displs[size-1] != size*(size-1)/2 {
			panic("wrong: Allgather")
		}
		prod := []int{0}
		mpi.Reduce(c, []int{mine}, prod, mpi.Prod, 0)
		if rank == 0 && prod[0] != factorial(size) {
			panic("wrong: Reduce Prod at the root")
		}
		// A loop over the gathered counts runs as many times as for real.
		work := 0
		for r := range counts {
			for i := 0; i < counts[r]; i++ {
				work++
			}
		}
		if work != total[0] {
			panic("wrong: loop over gathered counts")
		}
		gathered := make([]int, size)
		mpi.Gather(c, []int{mine * 10}, gathered, 0)
		if rank == 0 && gathered[size-1] != size*10 {
			panic("wrong: Gather at the root")
		}
		var all []int
		if rank == 0 {
			all = make([]int, 2*size)
			for i := range all {
				all[i] = i
			}
		}
		two := make([]int, 2)
		mpi.Scatter(c, all, two, 0)
		if two[0] != 2*rank || two[1] != 2*rank+1 {
			panic("wrong: Scatter")
		}
		sendCounts, recvCounts := make([]int, size), make([]int, size)
		for to := range sendCounts {
			sendCounts[to] = 100*rank + to
		}
		mpi.Alltoall(c, sendCounts, recvCounts)
		for from := range recvCounts {
			if recvCounts[from] != 100*from+rank {
				panic("wrong: Alltoall")
			}
		}
		// Offsets by prefix sums: each rank's first row.
		first, upto := []int{0}, []int{0}
		mpi.Exscan(c, []int{mine}, first, mpi.Sum)
		mpi.Scan(c, []int{mine}, upto, mpi.Sum)
		if first[0] != rank*(rank+1)/2 || upto[0] != first[0]+mine {
			panic("wrong: Exscan or Scan Sum")
		}
		rows := 0
		for i := first[0]; i < upto[0]; i++ {
			rows++
		}
		if rows != mine {
			panic("wrong: loop over a prefix sum's range")
		}
		everyRow := make([]float64, total[0])
		mpi.Allgatherv(c, make([]float64, mine), everyRow, counts, displs)
		sub := c.Split(rank%2, rank)
		before := []float64{-1}
		mpi.Exscan(sub, []float64{1}, before, mpi.Sum)
		if before[0] != float64(rank/2) && rank > 1 || rank <= 1 && before[0] != -1 {
			panic("wrong: Exscan on a Split communicator")
		}
		low := []int{0}
		mpi.Allreduce(sub, []int{rank}, low, mpi.Min)
		if low[0] != rank%2 {
			panic("wrong: Allreduce on a Split communicator")
		}
	})
}

func factorial(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
	}
	return f
}
