// Command overlap solves the 2-D Laplace equation by Jacobi iteration on an
// n x n grid of unknowns (plus a fixed edge: 1 on the top, 0 elsewhere),
// split in blocks over a pr x pc process grid. Each step overlaps the halo
// exchange with computation: it posts Irecv and Isend for the four halos
// (the west and east columns packed into buffers), updates the block's
// interior, which needs no halo, waits for all eight requests, and then
// updates the block's boundary rows and columns. Every -every steps the
// ranks agree on the largest change (Allreduce Max).
//
//	go run . -np 4 -n 1000 -steps 80
//
// -check compares the sum of the field (Allreduce Sum) with a serial Jacobi
// run on rank 0. The last line is "elapsed: <seconds> s".
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

const (
	tagN = iota + 1 // a message going north (to the rank above)
	tagS
	tagW
	tagE
)

func main() {
	n := flag.Int("n", 1000, "unknowns per side")
	steps := flag.Int("steps", 80, "Jacobi steps")
	every := flag.Int("every", 10, "steps between convergence reductions")
	check := flag.Bool("check", true, "compare with a serial Jacobi run on rank 0")
	flag.Parse()
	if *n < 2 || *steps < 1 || *every < 1 {
		fmt.Fprintln(os.Stderr, "overlap: need -n >= 2, -steps >= 1, -every >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *steps, *every, *check) })
}

// grid returns pr x pc with pr the largest divisor of p not above sqrt(p).
func grid(p int) (pr, pc int) {
	pr = 1
	for d := 1; d*d <= p; d++ {
		if p%d == 0 {
			pr = d
		}
	}
	return pr, p / pr
}

func run(c *mpi.Comm, n, steps, every int, check bool) {
	rank, size := c.Rank(), c.Size()
	pr, pc := grid(size)
	if n < pr || n < pc {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "overlap: -n %d too small for a %dx%d grid\n", n, pr, pc)
		}
		c.Abort(2)
	}
	myr, myc := rank/pc, rank%pc
	r0, r1 := myr*n/pr, (myr+1)*n/pr
	c0, c1 := myc*n/pc, (myc+1)*n/pc
	rows, cols := r1-r0, c1-c0
	w := cols + 2 // local row stride, with a halo column on each side

	north, south, west, east := -1, -1, -1, -1
	if myr > 0 {
		north = rank - pc
	}
	if myr < pr-1 {
		south = rank + pc
	}
	if myc > 0 {
		west = rank - 1
	}
	if myc < pc-1 {
		east = rank + 1
	}

	u := make([]float64, (rows+2)*w)
	v := make([]float64, (rows+2)*w)
	if north < 0 { // the top edge of the whole grid is 1
		for j := range w {
			u[j], v[j] = 1, 1
		}
	}
	sendW, sendE := make([]float64, rows), make([]float64, rows)
	recvW, recvE := make([]float64, rows), make([]float64, rows)
	local, global := []float64{0}, []float64{0}

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for step := 1; step <= steps; step++ {
		reqs := make([]*mpi.Request, 8)
		if north >= 0 {
			reqs[0] = mpi.Irecv(c, u[1:1+cols], north, tagS)
			reqs[1] = mpi.Isend(c, u[w+1:w+1+cols], north, tagN)
		}
		if south >= 0 {
			reqs[2] = mpi.Irecv(c, u[(rows+1)*w+1:(rows+1)*w+1+cols], south, tagN)
			reqs[3] = mpi.Isend(c, u[rows*w+1:rows*w+1+cols], south, tagS)
		}
		if west >= 0 {
			for i := range rows {
				sendW[i] = u[(i+1)*w+1]
			}
			reqs[4] = mpi.Irecv(c, recvW, west, tagE)
			reqs[5] = mpi.Isend(c, sendW, west, tagW)
		}
		if east >= 0 {
			for i := range rows {
				sendE[i] = u[(i+1)*w+cols]
			}
			reqs[6] = mpi.Irecv(c, recvE, east, tagW)
			reqs[7] = mpi.Isend(c, sendE, east, tagE)
		}

		// Interior: local rows 2..rows-1, columns 2..cols-1 need no halo.
		diff := update(u, v, w, 2, rows-1, 2, cols-1)

		mpi.Waitall(reqs...)
		if west >= 0 {
			for i := range rows {
				u[(i+1)*w] = recvW[i]
			}
		}
		if east >= 0 {
			for i := range rows {
				u[(i+1)*w+cols+1] = recvE[i]
			}
		}
		// Boundary: rows 1 and rows (all columns), columns 1 and cols of the rows between.
		diff = math.Max(diff, update(u, v, w, 1, 1, 1, cols))
		if rows > 1 {
			diff = math.Max(diff, update(u, v, w, rows, rows, 1, cols))
		}
		diff = math.Max(diff, update(u, v, w, 2, rows-1, 1, 1))
		if cols > 1 {
			diff = math.Max(diff, update(u, v, w, 2, rows-1, cols, cols))
		}
		u, v = v, u
		if step%every == 0 || step == steps {
			local[0] = diff
			mpi.Allreduce(c, local, global, mpi.Max)
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	sum := 0.0
	for i := 1; i <= rows; i++ {
		for j := 1; j <= cols; j++ {
			sum += u[i*w+j]
		}
	}
	total := []float64{0}
	mpi.Allreduce(c, []float64{sum}, total, mpi.Sum)
	if rank == 0 {
		fmt.Printf("overlap: n=%d ranks=%d grid=%dx%d steps=%d last change=%.3e sum=%.10f\n",
			n, size, pr, pc, steps, global[0], total[0])
		if check {
			want := serial(n, steps)
			if d := math.Abs(want - total[0]); d > 1e-9*math.Max(1, math.Abs(want)) {
				fmt.Fprintf(os.Stderr, "overlap: check failed: sum %.12f, serial %.12f\n", total[0], want)
				c.Abort(1)
			}
			fmt.Println("check: sum equals the serial Jacobi sum")
		}
		fmt.Printf("elapsed: %.4f s\n", elapsed)
	}
}

// update sets v = the 5-point average of u over local rows i0..i1 and columns
// j0..j1 (inclusive) and returns the largest change.
func update(u, v []float64, w, i0, i1, j0, j1 int) float64 {
	d := 0.0
	for i := i0; i <= i1; i++ {
		for j := j0; j <= j1; j++ {
			k := i*w + j
			x := 0.25 * (u[k-w] + u[k+w] + u[k-1] + u[k+1])
			if e := math.Abs(x - u[k]); e > d {
				d = e
			}
			v[k] = x
		}
	}
	return d
}

// serial runs the same Jacobi steps on one (n+2) x (n+2) array and returns
// the sum of the unknowns.
func serial(n, steps int) float64 {
	w := n + 2
	u := make([]float64, w*w)
	v := make([]float64, w*w)
	for j := range w {
		u[j], v[j] = 1, 1
	}
	for range steps {
		update(u, v, w, 1, n, 1, n)
		u, v = v, u
	}
	s := 0.0
	for i := 1; i <= n; i++ {
		for j := 1; j <= n; j++ {
			s += u[i*w+j]
		}
	}
	return s
}
