// Command kmeans clusters n points in d dimensions into k clusters with
// Lloyd's algorithm. The points are generated deterministically from a seed
// per point index (around k hidden centres) and block-distributed over the
// ranks. Each iteration every rank assigns its points to the nearest
// centroid and accumulates per-cluster sums and counts; one Allreduce sums
// them (with the number of points that changed cluster appended), and every
// rank updates the centroids. It stops after -iters iterations or when no
// point changed cluster.
//
//	go run . -np 4 -n 200000 -d 8 -k 16 -iters 30
//
// With -check (default), rank 0 repeats the clustering serially and compares
// the centroids and the iteration count.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type config struct {
	n, d, k, iters int
	seed           uint64
	check          bool
}

// splitmix64 is a small deterministic generator, seeded per point.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func unit(x uint64) float64 { return float64(x>>11) / (1 << 53) }

// point writes the coordinates of point i into p: a hidden centre chosen by
// i plus uniform noise.
func point(cfg config, i int, p []float64) {
	s := splitmix64(cfg.seed ^ uint64(i)*0x2545f4914f6cdd1d)
	c := int(s % uint64(cfg.k))
	for j := range p {
		s = splitmix64(s)
		centre := float64((c*7+j*3)%cfg.k) * 10 / float64(cfg.k)
		p[j] = centre + 2*(unit(s)-0.5)
	}
}

// dataset is one rank's points, row-major, and their current assignment.
type dataset struct {
	d      int
	x      []float64
	assign []int32
}

func newDataset(cfg config, lo, hi int) *dataset {
	ds := &dataset{d: cfg.d, x: make([]float64, (hi-lo)*cfg.d), assign: make([]int32, hi-lo)}
	for i := lo; i < hi; i++ {
		point(cfg, i, ds.x[(i-lo)*cfg.d:(i-lo+1)*cfg.d])
		ds.assign[i-lo] = -1
	}
	return ds
}

func (ds *dataset) len() int { return len(ds.assign) }

// model holds the centroids and the accumulators of one iteration.
type model struct {
	k, d      int
	centroids []float64 // k*d
	acc       []float64 // k*d sums, then k counts, then 1 change count
}

func newModel(cfg config) *model {
	m := &model{k: cfg.k, d: cfg.d, centroids: make([]float64, cfg.k*cfg.d), acc: make([]float64, cfg.k*cfg.d+cfg.k+1)}
	// initial centroids: the first k points of the global data set
	for c := range cfg.k {
		point(cfg, c, m.centroids[c*cfg.d:(c+1)*cfg.d])
	}
	return m
}

// nearest returns the index of the centroid closest to p.
func (m *model) nearest(p []float64) int {
	best, bestDist := 0, math.Inf(1)
	for c := 0; c < m.k; c++ {
		cen := m.centroids[c*m.d : (c+1)*m.d]
		dist := 0.0
		for j, v := range p {
			diff := v - cen[j]
			dist += diff * diff
		}
		if dist < bestDist {
			best, bestDist = c, dist
		}
	}
	return best
}

// assign labels every point of ds and accumulates the sums, counts and the
// number of changed labels into m.acc.
func (m *model) assign(ds *dataset) {
	clear(m.acc)
	sums, counts := m.acc[:m.k*m.d], m.acc[m.k*m.d:m.k*m.d+m.k]
	changed := 0
	for i := 0; i < len(ds.assign); i++ {
		p := ds.x[i*ds.d : (i+1)*ds.d]
		c := m.nearest(p)
		if int32(c) != ds.assign[i] {
			ds.assign[i] = int32(c)
			changed++
		}
		counts[c]++
		t := 0.0
		for _, v := range p {
			t += v
		}
		sums[c*m.d] += t
	}
	m.acc[len(m.acc)-1] = float64(changed)
}

// update sets every centroid with members to the mean of its members.
func (m *model) update(total []float64) {
	sums, counts := total[:m.k*m.d], total[m.k*m.d:m.k*m.d+m.k]
	for c := 0; c < m.k; c++ {
		if counts[c] == 0 {
			continue
		}
		for j := 0; j < m.d; j++ {
			m.centroids[c*m.d+j] = sums[c*m.d+j] / counts[c]
		}
	}
}

// serial runs the same clustering on one rank without MPI.
func serial(cfg config) ([]float64, int) {
	ds := newDataset(cfg, 0, cfg.n)
	m := newModel(cfg)
	it := 0
	for it < cfg.iters {
		it++
		m.assign(ds)
		m.update(m.acc)
		if m.acc[len(m.acc)-1] == 0 {
			break
		}
	}
	return m.centroids, it
}

func run(c *mpi.Comm, cfg config) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*cfg.n/size, (rank+1)*cfg.n/size
	ds := newDataset(cfg, lo, hi)
	m := newModel(cfg)
	total := make([]float64, len(m.acc))

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	it := 0
	for it < cfg.iters {
		it++
		m.assign(ds)
		mpi.Allreduce(c, m.acc, total, mpi.Sum)
		m.update(total)
		if total[len(total)-1] == 0 {
			break
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if rank == 0 {
		fmt.Printf("kmeans: n=%d d=%d k=%d ranks=%d iterations=%d last changes=%.0f\nelapsed: %.6f s\n",
			cfg.n, cfg.d, cfg.k, size, it, total[len(total)-1], elapsed)
	}
	if !cfg.check || rank != 0 {
		return
	}
	want, wantIt := serial(cfg)
	maxErr := 0.0
	for i := range want {
		maxErr = math.Max(maxErr, math.Abs(want[i]-m.centroids[i]))
	}
	if maxErr > 1e-9 || wantIt != it {
		fmt.Fprintf(os.Stderr, "kmeans: check FAILED: max centroid error %.3g, iterations %d (serial %d)\n", maxErr, it, wantIt)
		c.Abort(1)
	}
	fmt.Printf("check: OK (max centroid error %.3g, %d iterations)\n", maxErr, wantIt)
}

func main() {
	var cfg config
	flag.IntVar(&cfg.n, "n", 120000, "number of points")
	flag.IntVar(&cfg.d, "d", 8, "dimensions")
	flag.IntVar(&cfg.k, "k", 16, "clusters")
	flag.IntVar(&cfg.iters, "iters", 20, "maximum iterations")
	seed := flag.Uint64("seed", 12345, "data seed")
	flag.BoolVar(&cfg.check, "check", true, "compare with a serial run on rank 0")
	flag.Parse()
	cfg.seed = *seed
	if cfg.n < 1 || cfg.d < 1 || cfg.k < 1 || cfg.k > cfg.n {
		fmt.Fprintln(os.Stderr, "kmeans: need n >= k >= 1, d >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, cfg) })
}
