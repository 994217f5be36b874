// Command pagerank runs PageRank by power iteration on a synthetic graph.
// The graph has -n nodes; node v's in-edges come from an LCG seeded by
// (seed, v), with a power-law in-degree, and sources skewed towards low
// node ids so the out-degrees are skewed too. Each rank owns a block of
// rows (nodes) and stores their in-edges in CSR form; it builds them
// itself. Out-degrees are summed with Allreduce once. Every iteration
// each rank computes the contributions x[u]/outdeg[u] of its nodes, the
// ranks Allgather them (blocks padded to ceil(n/P): the mpi package has
// no Allgatherv), and each rank pulls the sums over its rows. The L1
// change and the next dangling mass go through one Allreduce; the loop
// stops when the change is below -tol or after -maxit iterations.
// With -check rank 0 repeats the computation serially and compares.
//
//	go run . -np 4 -check
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type config struct {
	n, avgDeg, maxDeg, maxit int
	damping, tol             float64
	seed                     uint64
	check                    bool
}

// lcg is a 64-bit linear congruential generator.
type lcg struct{ s uint64 }

func newLCG(seed, stream uint64) *lcg {
	g := &lcg{s: seed*0x9E3779B97F4A7C15 ^ (stream+1)*0xBF58476D1CE4E5B9}
	g.next()
	g.next()
	return g
}

func (g *lcg) next() uint64 {
	g.s = g.s*6364136223846793005 + 1442695040888963407
	return g.s
}

// float returns a number in (0, 1].
func (g *lcg) float() float64 {
	return (float64(g.next()>>11) + 1) / (1 << 53)
}

// csr holds the in-edges of rows lo..hi-1.
type csr struct {
	lo, hi int
	rowptr []int
	col    []int32
}

func (m *csr) rows() int { return m.hi - m.lo }

func (m *csr) edges() int { return len(m.col) }

// inEdges makes row v's sources; every rank gets the same ones.
func inEdges(cfg config, v int, out []int32) []int32 {
	g := newLCG(cfg.seed, uint64(v))
	// power law with exponent 2.5, minimum degree avgDeg/3
	dmin := float64(cfg.avgDeg) / 3
	d := int(dmin * math.Pow(g.float(), -1/1.5))
	d = min(d, cfg.maxDeg)
	for range d {
		u := g.float()
		src := int32(float64(cfg.n) * u * u) // skewed towards low ids
		if int(src) >= cfg.n {
			src = int32(cfg.n - 1)
		}
		if int(src) == v {
			continue // no self loops
		}
		out = append(out, src)
	}
	return out
}

func build(cfg config, lo, hi int) *csr {
	m := &csr{lo: lo, hi: hi, rowptr: make([]int, 1, hi-lo+1)}
	for v := lo; v < hi; v++ {
		m.col = inEdges(cfg, v, m.col)
		m.rowptr = append(m.rowptr, len(m.col))
	}
	return m
}

// pull computes next[i] = base + d * sum of contrib over row i's sources
// and returns the L1 change against cur.
func (m *csr) pull(contrib, cur, next []float64, base, d float64) float64 {
	change := 0.0
	for i := range m.rows() {
		s := 0.0
		for _, u := range m.col[m.rowptr[i]:m.rowptr[i+1]] {
			s += contrib[u]
		}
		next[i] = base + d*s
		change += math.Abs(next[i] - cur[i])
	}
	return change
}

type Number interface{ ~int | ~int32 | ~float64 }

func sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func blockOf(n, size, rank int) (lo, hi int) {
	b := (n + size - 1) / size
	lo = min(rank*b, n)
	hi = min(lo+b, n)
	return lo, hi
}

func main() {
	var cfg config
	flag.IntVar(&cfg.n, "n", 300000, "nodes")
	flag.IntVar(&cfg.avgDeg, "deg", 24, "typical in-degree (the power law's minimum is deg/3)")
	flag.IntVar(&cfg.maxDeg, "maxdeg", 2000, "largest in-degree")
	flag.IntVar(&cfg.maxit, "maxit", 100, "most iterations")
	flag.Float64Var(&cfg.damping, "d", 0.85, "damping factor")
	flag.Float64Var(&cfg.tol, "tol", 1e-12, "stop when the L1 change is below this")
	flag.Uint64Var(&cfg.seed, "seed", 7, "graph seed")
	flag.BoolVar(&cfg.check, "check", false, "compare with a serial run on rank 0")
	flag.Parse()
	if cfg.n < 2 || cfg.avgDeg < 3 || cfg.maxit < 1 {
		fmt.Fprintln(os.Stderr, "pagerank: need -n >= 2, -deg >= 3, -maxit >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, cfg) })
}

// solver is one rank's state.
type solver struct {
	cfg      config
	c        *mpi.Comm
	a        *csr
	invdeg   []float64 // 1/outdeg of my nodes, 0 for dangling ones
	dangling []bool
	x, xn    []float64
	contrib  []float64 // my block, padded
	all      []float64 // everybody's contributions
}

func newSolver(c *mpi.Comm, cfg config) *solver {
	size, rank := c.Size(), c.Rank()
	lo, hi := blockOf(cfg.n, size, rank)
	s := &solver{cfg: cfg, c: c, a: build(cfg, lo, hi)}
	// out-degrees: count my in-edges' sources, sum over ranks
	cnt := make([]int, cfg.n)
	for _, u := range s.a.col {
		cnt[u]++
	}
	deg := make([]int, cfg.n)
	mpi.Allreduce(c, cnt, deg, mpi.Sum)
	rows := hi - lo
	s.invdeg = make([]float64, rows)
	s.dangling = make([]bool, rows)
	for i := range rows {
		if d := deg[lo+i]; d > 0 {
			s.invdeg[i] = 1 / float64(d)
		} else {
			s.dangling[i] = true
		}
	}
	b := (cfg.n + size - 1) / size
	s.x = make([]float64, rows)
	s.xn = make([]float64, rows)
	s.contrib = make([]float64, b)
	s.all = make([]float64, b*size)
	for i := range s.x {
		s.x[i] = 1 / float64(cfg.n)
	}
	return s
}

func (s *solver) danglingMass(x []float64) float64 {
	m := 0.0
	for i, v := range x {
		if s.dangling[i] {
			m += v
		}
	}
	return m
}

// solve iterates and returns the number of iterations and the last change.
func (s *solver) solve() (int, float64) {
	n := float64(s.cfg.n)
	d := s.cfg.damping
	red := make([]float64, 2)
	out := make([]float64, 2)
	mpi.Allreduce(s.c, []float64{s.danglingMass(s.x)}, out[:1], mpi.Sum)
	dmass := out[0]
	change := math.Inf(1)
	it := 0
	for it < s.cfg.maxit && change >= s.cfg.tol {
		for i, v := range s.x {
			s.contrib[i] = v * s.invdeg[i]
		}
		mpi.Allgather(s.c, s.contrib, s.all)
		base := (1-d)/n + d*dmass/n
		red[0] = s.a.pull(s.all, s.x, s.xn, base, d)
		red[1] = s.danglingMass(s.xn)
		mpi.Allreduce(s.c, red, out, mpi.Sum)
		change, dmass = out[0], out[1]
		s.x, s.xn = s.xn, s.x
		it++
	}
	return it, change
}

func run(c *mpi.Comm, cfg config) {
	s := newSolver(c, cfg)
	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	it, change := s.solve()
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	// gather the result on rank 0 for the report
	size := c.Size()
	b := len(s.contrib)
	mine := make([]float64, b)
	copy(mine, s.x)
	var all []float64
	if c.Rank() == 0 {
		all = make([]float64, b*size)
	}
	mpi.Gather(c, mine, all, 0)
	if c.Rank() != 0 {
		return
	}
	x := all[:cfg.n]
	top := 0
	for i, v := range x {
		if v > x[top] {
			top = i
		}
	}
	fmt.Printf("pagerank: %d nodes, %d edges on rank 0, %d iterations (change %.2e), sum %.12f, top node %d (%.3e), %d ranks\n",
		cfg.n, s.a.edges(), it, change, sum(x), top, x[top], size)
	fmt.Printf("elapsed: %.6f s\n", elapsed)
	if !cfg.check {
		return
	}
	want, wit := serial(cfg)
	worst := 0.0
	for i := range want {
		worst = max(worst, math.Abs(want[i]-x[i]))
	}
	if worst > 1e-12 || wit != it {
		fmt.Fprintf(os.Stderr, "pagerank: check failed: largest difference %.2e, %d iterations (serial %d)\n", worst, it, wit)
		os.Exit(1)
	}
	fmt.Printf("pagerank: check passed (largest difference %.1e)\n", worst)
}

// serial is the plain textbook version over the whole graph.
func serial(cfg config) ([]float64, int) {
	n := cfg.n
	src := make([][]int32, n)
	deg := make([]int, n)
	for v := range n {
		src[v] = inEdges(cfg, v, nil)
		for _, u := range src[v] {
			deg[u]++
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(n)
	}
	xn := make([]float64, n)
	d := cfg.damping
	it := 0
	for change := math.Inf(1); it < cfg.maxit && change >= cfg.tol; it++ {
		dm := 0.0
		for v := range n {
			if deg[v] == 0 {
				dm += x[v]
			}
		}
		change = 0
		for v := range n {
			s := 0.0
			for _, u := range src[v] {
				s += x[u] / float64(deg[u])
			}
			xn[v] = (1-d)/float64(n) + d*dm/float64(n) + d*s
			change += math.Abs(xn[v] - x[v])
		}
		x, xn = xn, x
	}
	return x, it
}
