// Command transpose transposes a distributed n x n matrix -reps times. Each
// rank holds a block of rows; a transpose packs, for every rank r, the
// columns that become r's rows, exchanges the packs with one Alltoallv, and
// transposes each received block into place.
//
//	go run ./examples/transpose -np 4 -n 512 -reps 10
//
// Alltoallv rather than Alltoall is used so that any n works with any rank
// count: rank r holds rows [r*n/size, (r+1)*n/size), and blocks differ in
// size when size does not divide n. Rank 0 gathers the result and compares
// it with -reps serial transposes (skip with -check=false); its last line is
// "elapsed: <seconds> s", from a Barrier before the first transpose to the
// end of the gather.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 512, "matrix order (n x n)")
	reps := flag.Int("reps", 10, "number of transposes")
	check := flag.Bool("check", true, "compare the result with serial transposes on rank 0")
	flag.Parse()
	switch {
	case *n < 1:
		fmt.Fprintf(os.Stderr, "transpose: -n must be at least 1, got %d\n", *n)
		os.Exit(2)
	case *reps < 1:
		fmt.Fprintf(os.Stderr, "transpose: -reps must be at least 1, got %d\n", *reps)
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *reps, *check) })
}

// run is one rank's part of the program.
func run(c *mpi.Comm, n, reps int, check bool) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*n/size, (rank+1)*n/size
	rows := hi - lo

	a := make([]float64, rows*n)
	fill(a, lo, rows, n)
	send := make([]float64, rows*n)
	recv := make([]float64, rows*n)
	sendCounts, sendDispls, recvCounts, recvDispls := exchangeLayout(rank, size, n)
	counts, displs := rowLayout(size, n, n)
	var whole []float64 // the gathered result, on rank 0
	if rank == 0 {
		whole = make([]float64, n*n)
	}

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for rep := 0; rep < reps; rep++ {
		pack(a, send, rows, n, size)
		mpi.Alltoallv(c, send, sendCounts, sendDispls, recv, recvCounts, recvDispls)
		unpack(recv, a, rows, n, size)
	}
	c.EndInterval(1)
	mpi.Gatherv(c, a, whole, counts, displs, 0)
	elapsed := mpi.Wtime() - t0

	if rank != 0 {
		return
	}
	moved := 8 * (n*n - sumSquares(size, n))
	fmt.Printf("transpose: n=%d ranks=%d reps=%d bytes between ranks per transpose=%d\n", n, size, reps, moved)
	if check {
		want := serialTransposes(n, reps)
		for i := range want {
			if whole[i] != want[i] {
				fmt.Fprintf(os.Stderr, "transpose: check failed: element [%d][%d] = %g, serial transposes give %g\n",
					i/n, i%n, whole[i], want[i])
				c.Abort(1)
			}
		}
		fmt.Printf("check: result equals %d serial transposes\n", reps)
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}
