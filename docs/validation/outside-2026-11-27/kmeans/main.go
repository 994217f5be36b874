// Command kmeans clusters -n generated points in -d dimensions into -k
// clusters by Lloyd's algorithm, the points split over the ranks: each
// iteration every rank assigns its points to the nearest centre, the
// ranks add up the per-cluster sums and counts (Allreduce), and the new
// centres are their means; it stops when no point changed cluster
// (an Allreduce of the changes) or after -iters iterations.
//
//	go run . -np 4 -n 200000 -k 8
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type params struct{ n, d, k, iters int }

func main() {
	var p params
	flag.IntVar(&p.n, "n", 100000, "points")
	flag.IntVar(&p.d, "d", 4, "dimensions")
	flag.IntVar(&p.k, "k", 8, "clusters")
	flag.IntVar(&p.iters, "iters", 50, "most iterations")
	flag.Parse()
	if p.n < 1 || p.d < 1 || p.k < 1 || p.iters < 1 {
		fmt.Fprintln(os.Stderr, "kmeans: -n, -d, -k and -iters must be at least 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*p.n/size, (rank+1)*p.n/size
	pts := points(lo, hi, p.d)
	centres := points(0, p.k, p.d) // the first k points are the first centres
	assign := make([]int, hi-lo)
	for i := range assign {
		assign[i] = -1
	}
	sums := make([]float64, p.k*p.d+p.k) // per cluster: d coordinate sums, then the counts
	all := make([]float64, len(sums))
	changed := []int64{1}
	total := []int64{0}
	it := 0
	c.BeginInterval(1)
	for ; it < p.iters && changed[0] > 0; it++ {
		clear(sums)
		changed[0] = int64(nearest(pts, centres, assign, sums, p.d, p.k))
		mpi.Allreduce(c, sums, all, mpi.Sum)
		mpi.Allreduce(c, changed, total, mpi.Sum)
		changed[0] = total[0]
		update(centres, all, p.d, p.k)
	}
	c.EndInterval(1)
	if rank == 0 {
		fmt.Printf("kmeans: n=%d k=%d ranks=%d iterations=%d centre0=%.4f\n", p.n, p.k, size, it, centres[0])
	}
}

// points makes points lo..hi-1: d coordinates each, around k hidden
// centres, from a hash of the index.
func points(lo, hi, d int) []float64 {
	out := make([]float64, (hi-lo)*d)
	for i := lo; i < hi; i++ {
		for j := range d {
			h := uint64(i*d+j)*0x9e3779b97f4a7c15 + 12345
			h ^= h >> 29
			h *= 0xbf58476d1ce4e5b9
			h ^= h >> 32
			out[(i-lo)*d+j] = float64(i%7)*10 + float64(h%1000)/100
		}
	}
	return out
}

// nearest assigns each point to its nearest centre, adds it to its
// cluster's sums, and returns how many points changed cluster.
func nearest(pts, centres []float64, assign []int, sums []float64, d, k int) int {
	moved := 0
	for i := range assign {
		x := pts[i*d : (i+1)*d]
		best, at := math.Inf(1), 0
		for c := range k {
			dist := 0.0
			for j, v := range x {
				t := v - centres[c*d+j]
				dist += t * t
			}
			if dist < best {
				best, at = dist, c
			}
		}
		if assign[i] != at {
			assign[i] = at
			moved++
		}
		for j, v := range x {
			sums[at*d+j] += v
		}
		sums[k*d+at]++
	}
	return moved
}

// update sets each centre to its cluster's mean, keeping an empty
// cluster's centre.
func update(centres, all []float64, d, k int) {
	for c := range k {
		if n := all[k*d+c]; n > 0 {
			for j := range d {
				centres[c*d+j] = all[c*d+j] / n
			}
		}
	}
}
