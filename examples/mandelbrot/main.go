// Command mandelbrot computes escape-time counts of the Mandelbrot set on a
// width x height image: an unbalanced loop, since rows through the set cost
// up to -maxiter iterations per pixel and rows outside it only a few. With
// -dist block each rank computes a contiguous band of rows; with
// -dist cyclic rank r computes rows r, r+size, r+2*size, ..., which evens
// out the cost. Rank 0 gathers the rows (Gatherv) and puts them in order.
//
//	go run ./examples/mandelbrot -np 4 -dist block
//	go run ./examples/mandelbrot -np 4 -dist cyclic -width 1024 -height 1024
//
// Rank 0 compares the image with a serial computation (skip with
// -check=false) and prints the iterations each rank did; its last line is
// "elapsed: <seconds> s", from a Barrier before the computation to the end
// of the gather.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

// params are the command-line settings.
type params struct {
	width, height, maxIter int
	cyclic                 bool
	check                  bool
}

func main() {
	width := flag.Int("width", 512, "image width in pixels")
	height := flag.Int("height", 512, "image height in pixels (rows)")
	maxIter := flag.Int("maxiter", 1000, "iteration limit per pixel")
	dist := flag.String("dist", "block", "row distribution: block or cyclic")
	check := flag.Bool("check", true, "compare the image with a serial computation on rank 0")
	flag.Parse()
	p := params{width: *width, height: *height, maxIter: *maxIter, cyclic: *dist == "cyclic", check: *check}
	var bad string
	switch {
	case *width < 1 || *height < 1:
		bad = fmt.Sprintf("-width and -height must be at least 1, got %d x %d", *width, *height)
	case *maxIter < 1:
		bad = fmt.Sprintf("-maxiter must be at least 1, got %d", *maxIter)
	case *dist != "block" && *dist != "cyclic":
		bad = fmt.Sprintf("-dist must be block or cyclic, got %q", *dist)
	}
	if bad != "" {
		fmt.Fprintf(os.Stderr, "mandelbrot: %s\n", bad)
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

// run is one rank's part of the program.
func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	w, h := p.width, p.height
	first, stride, count := myRows(rank, size, h, p.cyclic)
	local := make([]int32, count*w)
	counts, displs := gatherLayout(size, h, w, p.cyclic)
	var gathered, image []int32 // on rank 0 only
	if rank == 0 {
		gathered = make([]int32, w*h)
		image = make([]int32, w*h)
	}

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for k := 0; k < count; k++ {
		y := first + k*stride
		mandelRow(local[k*w:(k+1)*w], y, w, h, p.maxIter)
	}
	c.EndInterval(1)
	mpi.Gatherv(c, local, gathered, counts, displs, 0)
	if rank == 0 {
		placeRows(gathered, image, size, h, w, p.cyclic)
	}
	elapsed := mpi.Wtime() - t0

	// Outside the timed part: how the work fell on the ranks.
	work := []int64{sum(local)}
	var perRank []int64
	if rank == 0 {
		perRank = make([]int64, size)
	}
	mpi.Gather(c, work, perRank, 0)

	if rank != 0 {
		return
	}
	dist := "block"
	if p.cyclic {
		dist = "cyclic"
	}
	fmt.Printf("mandelbrot: %dx%d maxiter=%d ranks=%d dist=%s iterations=%d\n", w, h, p.maxIter, size, dist, sum(image))
	fmt.Printf("iterations per rank: %v (max/mean %.3f)\n", perRank, imbalance(perRank))
	if p.check {
		want := serialImage(w, h, p.maxIter)
		for i := range want {
			if image[i] != want[i] {
				fmt.Fprintf(os.Stderr, "mandelbrot: check failed: pixel (%d, %d) took %d iterations, serial computation gives %d\n",
					i%w, i/w, image[i], want[i])
				c.Abort(1)
			}
		}
		fmt.Println("check: image equals the serial computation")
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}
