// Command kmeans clusters -n random points in -d dimensions into -k
// clusters with Lloyd's algorithm. The points are block-distributed over
// the ranks; every rank makes its own block from a seeded generator (point
// i is the same whichever rank makes it). Each iteration a rank assigns its
// points to the nearest centroid, sums the coordinates and counts per
// cluster, and the ranks Allreduce the sums, the counts and the number of
// points whose assignment changed; the loop ends when no point changed or
// after -iters iterations. With -check rank 0 runs the same iterations
// serially and compares the centroids.
//
//	go run . -np 4 -check
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type config struct {
	n, d, k  int
	maxIters int
	seed     uint64
	check    bool
}

// point i's coordinates: k blobs around random centres, plus noise.
func makePoint(cfg config, i int, out []float64) {
	r := rand.New(rand.NewPCG(cfg.seed, uint64(i)))
	blob := r.IntN(cfg.k)
	cr := rand.New(rand.NewPCG(cfg.seed^0xabcdef, uint64(blob)))
	for j := range out {
		out[j] = cr.Float64()*10 + r.NormFloat64()
	}
}

// model is the centroids and the per-cluster accumulators.
type model struct {
	d, k      int
	centroids []float64 // k x d
	sums      []float64 // k x d, then the counts in the last k
}

func newModel(d, k int) *model {
	return &model{d: d, k: k, centroids: make([]float64, k*d), sums: make([]float64, k*d+k)}
}

func (m *model) centroid(c int) []float64 { return m.centroids[c*m.d : (c+1)*m.d] }

func (m *model) nearest(x []float64) int {
	best, bestD := 0, math.Inf(1)
	for c := 0; c < m.k; c++ {
		cen := m.centroid(c)
		dist := 0.0
		for j, v := range x {
			t := v - cen[j]
			dist += t * t
		}
		if dist < bestD {
			best, bestD = c, dist
		}
	}
	return best
}

// assign labels the points, accumulates sums and counts and returns how
// many labels changed.
func (m *model) assign(pts []float64, labels []int) int {
	clear(m.sums)
	changed := 0
	for i := range labels {
		x := pts[i*m.d : (i+1)*m.d]
		c := m.nearest(x)
		if c != labels[i] {
			labels[i] = c
			changed++
		}
		acc := m.sums[c*m.d : (c+1)*m.d]
		for j, v := range x {
			acc[j] += v
		}
		m.sums[m.k*m.d+c]++
	}
	return changed
}

// update sets the centroids from the global sums; an empty cluster keeps
// its centroid.
func (m *model) update(global []float64) {
	for c := 0; c < m.k; c++ {
		cnt := global[m.k*m.d+c]
		if cnt == 0 {
			continue
		}
		cen := m.centroid(c)
		for j := range cen {
			cen[j] = global[c*m.d+j] / cnt
		}
	}
}

func main() {
	var cfg config
	flag.IntVar(&cfg.n, "n", 80000, "points")
	flag.IntVar(&cfg.d, "d", 4, "dimensions")
	flag.IntVar(&cfg.k, "k", 8, "clusters")
	flag.IntVar(&cfg.maxIters, "iters", 200, "at most this many iterations")
	flag.Uint64Var(&cfg.seed, "seed", 42, "seed")
	flag.BoolVar(&cfg.check, "check", false, "compare with a serial run on rank 0")
	flag.Parse()
	if cfg.n < cfg.k || cfg.d < 1 || cfg.k < 1 {
		fmt.Fprintln(os.Stderr, "kmeans: need -n >= -k >= 1 and -d >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, cfg) })
}

func initial(cfg config) []float64 {
	// the first k points are the first centroids
	cen := make([]float64, cfg.k*cfg.d)
	for c := 0; c < cfg.k; c++ {
		makePoint(cfg, c, cen[c*cfg.d:(c+1)*cfg.d])
	}
	return cen
}

func run(c *mpi.Comm, cfg config) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*cfg.n/size, (rank+1)*cfg.n/size
	pts := make([]float64, (hi-lo)*cfg.d)
	for i := lo; i < hi; i++ {
		makePoint(cfg, i, pts[(i-lo)*cfg.d:(i-lo+1)*cfg.d])
	}
	labels := make([]int, hi-lo)
	for i := range labels {
		labels[i] = -1
	}
	m := newModel(cfg.d, cfg.k)
	copy(m.centroids, initial(cfg))
	global := make([]float64, len(m.sums))
	local, total := []int64{0}, []int64{0}

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	iters := 0
	for iters < cfg.maxIters {
		local[0] = int64(m.assign(pts, labels))
		mpi.Allreduce(c, m.sums, global, mpi.Sum)
		mpi.Allreduce(c, local, total, mpi.Sum)
		m.update(global)
		iters++
		if total[0] == 0 {
			break
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0
	if rank != 0 {
		return
	}
	fmt.Printf("kmeans: n=%d d=%d k=%d ranks=%d iterations=%d last changes=%d\n", cfg.n, cfg.d, cfg.k, size, iters, total[0])
	fmt.Printf("elapsed: %.6f s\n", elapsed)
	if !cfg.check {
		return
	}
	want := serial(cfg, iters)
	worst := 0.0
	for i := range want {
		worst = max(worst, math.Abs(want[i]-m.centroids[i]))
	}
	if worst > 1e-9 {
		fmt.Fprintf(os.Stderr, "kmeans: check failed: centroids differ by %.3g\n", worst)
		os.Exit(1)
	}
	fmt.Println("kmeans: check passed")
}

func serial(cfg config, iters int) []float64 {
	pts := make([]float64, cfg.n*cfg.d)
	for i := 0; i < cfg.n; i++ {
		makePoint(cfg, i, pts[i*cfg.d:(i+1)*cfg.d])
	}
	labels := make([]int, cfg.n)
	for i := range labels {
		labels[i] = -1
	}
	m := newModel(cfg.d, cfg.k)
	copy(m.centroids, initial(cfg))
	for it := 0; it < iters; it++ {
		m.assign(pts, labels)
		m.update(m.sums)
	}
	return m.centroids
}
