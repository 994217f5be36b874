// Command gridmv runs a power iteration y = A x, x = y / |y| with a dense
// n x n matrix distributed in blocks over a pr x pc process grid (pr the
// largest divisor of P not above sqrt(P)). The grid's rows and columns are
// communicators of their own (Comm.Split): every step each rank multiplies
// its block by its piece of x, the partial products are summed over the
// grid row (Allreduce on the row communicator), and the column communicator
// assembles the whole y on every rank (Allgatherv), from which each rank
// takes the piece of x its block column needs.
//
//	go run . -np 4 -n 2000 -steps 30
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 2000, "matrix size")
	steps := flag.Int("steps", 60, "power iterations")
	check := flag.Bool("check", true, "compare with a serial power iteration on rank 0")
	flag.Parse()
	if *n < 1 || *steps < 1 {
		fmt.Fprintln(os.Stderr, "gridmv: -n and -steps must be positive")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *steps, *check) })
}

// grid returns the process grid's shape for p ranks.
func grid(p int) (pr, pc int) {
	pr = 1
	for d := 1; d*d <= p; d++ {
		if p%d == 0 {
			pr = d
		}
	}
	return pr, p / pr
}

// block is the range [lo, hi) of part k of n split into parts.
func block(n, parts, k int) (lo, hi int) { return k * n / parts, (k + 1) * n / parts }

// entry is A[i][j]: symmetric, diagonally dominant.
func entry(i, j, n int) float64 {
	if i == j {
		return float64(n) / 10
	}
	d := i - j
	if d < 0 {
		d = -d
	}
	return 1 / float64(1+d)
}

func run(c *mpi.Comm, n, steps int, check bool) {
	rank, size := c.Rank(), c.Size()
	pr, pc := grid(size)
	myRow, myCol := rank/pc, rank%pc
	rowComm := c.Split(myRow, myCol) // the ranks of my grid row
	colComm := c.Split(myCol, myRow) // the ranks of my grid column
	r0, r1 := block(n, pr, myRow)
	c0, c1 := block(n, pc, myCol)
	nr, nc := r1-r0, c1-c0

	a := make([]float64, nr*nc)
	for i := 0; i < nr; i++ {
		for j := 0; j < nc; j++ {
			a[i*nc+j] = entry(r0+i, c0+j, n)
		}
	}
	counts, displs := make([]int, pr), make([]int, pr)
	for k := 0; k < pr; k++ {
		lo, hi := block(n, pr, k)
		counts[k], displs[k] = hi-lo, lo
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 / math.Sqrt(float64(n))
	}
	part := make([]float64, nr)
	yRow := make([]float64, nr)
	y := make([]float64, n)
	lambda := 0.0

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for s := 0; s < steps; s++ {
		matvec(a, x[c0:c1], part, nr, nc)
		mpi.Allreduce(rowComm, part, yRow, mpi.Sum)
		mpi.Allgatherv(colComm, yRow, y, counts, displs)
		lambda = normalize(y, x)
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0
	if rank != 0 {
		return
	}
	fmt.Printf("gridmv: n=%d ranks=%d grid=%dx%d steps=%d lambda=%.10f\n", n, size, pr, pc, steps, lambda)
	if check {
		want, wx := serial(n, steps)
		d := 0.0
		for i := range wx {
			d = math.Max(d, math.Abs(wx[i]-x[i]))
		}
		if math.Abs(want-lambda) > 1e-9*want || d > 1e-9 {
			fmt.Fprintf(os.Stderr, "gridmv: check failed: lambda %.15g, serial %.15g, max |dx| %.3g\n", lambda, want, d)
			c.Abort(1)
		}
		fmt.Printf("check: lambda and x equal the serial run's (max |dx| %.3g)\n", d)
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

// matvec sets part = a x for the nr x nc block a.
func matvec(a, x, part []float64, nr, nc int) {
	for i := 0; i < nr; i++ {
		s := 0.0
		row := a[i*nc : (i+1)*nc]
		for j, v := range row {
			s += v * x[j]
		}
		part[i] = s
	}
}

// normalize sets x = y / |y| and returns |y|.
func normalize(y, x []float64) float64 {
	s := 0.0
	for _, v := range y {
		s += v * v
	}
	norm := math.Sqrt(s)
	for i, v := range y {
		x[i] = v / norm
	}
	return norm
}

// serial is the same iteration on one process.
func serial(n, steps int) (float64, []float64) {
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a[i*n+j] = entry(i, j, n)
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 / math.Sqrt(float64(n))
	}
	y := make([]float64, n)
	lambda := 0.0
	for s := 0; s < steps; s++ {
		matvec(a, x, y, n, n)
		lambda = normalize(y, x)
	}
	return lambda, x
}
