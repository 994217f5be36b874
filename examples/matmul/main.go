// Command matmul multiplies two dense n x n matrices, C = A x B, the ParJava
// paper's example 1: rank 0 builds A and B, scatters row blocks of A, and
// broadcasts B; every rank computes its rows of C with all of B (no
// communication inside the computation), and rank 0 gathers C.
//
//	go run ./examples/matmul -np 4 -n 400
//
// Rank 0 compares C with a serial multiply (skip with -check=false) and
// prints a summary; its last line is "elapsed: <seconds> s", the wall time
// from a Barrier before the scatter to the end of the gather.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 400, "matrix order (A, B and C are n x n)")
	check := flag.Bool("check", true, "compare C with a serial multiply on rank 0")
	flag.Parse()
	if *n < 1 {
		fmt.Fprintf(os.Stderr, "matmul: -n must be at least 1, got %d\n", *n)
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *check) })
}

// run is one rank's part of the program.
func run(c *mpi.Comm, n int, check bool) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*n/size, (rank+1)*n/size
	rows := hi - lo
	counts, displs := rowLayout(size, n, n)

	b := make([]float64, n*n)
	var a, cm []float64 // whole A and C, on rank 0 only
	if rank == 0 {
		a = make([]float64, n*n)
		cm = make([]float64, n*n)
		fillA(a, n)
		fillB(b, n)
	}
	myA := make([]float64, rows*n)
	myC := make([]float64, rows*n)

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	mpi.Scatterv(c, a, counts, displs, myA, 0)
	mpi.Bcast(c, b, 0)
	multiplyRows(myA, b, myC, rows, n)
	mpi.Gatherv(c, myC, cm, counts, displs, 0)
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if rank != 0 {
		return
	}
	fmt.Printf("matmul: n=%d ranks=%d trace(C)=%.6g\n", n, size, trace(cm, n))
	if check {
		want := make([]float64, n*n)
		multiplyRows(a, b, want, n, n)
		if i, ok := firstDiff(cm, want); !ok {
			fmt.Fprintf(os.Stderr, "matmul: check failed: C[%d][%d] = %g, serial multiply gives %g\n",
				i/n, i%n, cm[i], want[i])
			c.Abort(1)
		}
		fmt.Println("check: C equals the serial product")
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

// rowLayout returns the element counts and offsets of the row blocks of an
// n-row, width-column matrix over size ranks: rank r holds rows
// [r*n/size, (r+1)*n/size), so blocks differ by at most one row.
func rowLayout(size, n, width int) (counts, displs []int) {
	counts, displs = make([]int, size), make([]int, size)
	for r := range size {
		lo, hi := r*n/size, (r+1)*n/size
		counts[r], displs[r] = (hi-lo)*width, lo*width
	}
	return counts, displs
}
