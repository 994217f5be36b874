// Command spmv2 is spmv with the request list a local slice (work-around of
// fault 'waitall-field'). spmv runs a power iteration y = A x / |A x| with the 5-point
// Laplacian of an m x m grid stored in CSR, rows block-distributed. Each
// rank first works out which remote x entries (ghost columns) its rows
// need and from which ranks, and tells the owners with Alltoall/Alltoallv.
// Every iteration it posts Irecv/Isend for the ghosts, multiplies the
// purely local rows while the messages travel, Waitall, then multiplies the
// rows that need ghosts, and normalises with an Allreduce of the norm.
//
//	go run . -np 4 -m 300 -iters 100
//
// With -check (default) rank 0 gathers y and compares it with a serial run.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"sort"

	"github.com/parpredict/parpredict/mpi"
)

type config struct {
	m, iters int
	check    bool
}

// csr is a block of rows of a sparse matrix with global column indices.
type csr struct {
	rowPtr []int
	col    []int
	val    []float64
}

// laplacian builds rows [lo, hi) of the 5-point Laplacian on an m x m grid.
func laplacian(m, lo, hi int) *csr {
	a := &csr{rowPtr: make([]int, 0, hi-lo+1)}
	a.rowPtr = append(a.rowPtr, 0)
	for r := lo; r < hi; r++ {
		i, j := r/m, r%m
		if i > 0 {
			a.col = append(a.col, r-m)
			a.val = append(a.val, -1)
		}
		if j > 0 {
			a.col = append(a.col, r-1)
			a.val = append(a.val, -1)
		}
		a.col = append(a.col, r)
		a.val = append(a.val, 4)
		if j < m-1 {
			a.col = append(a.col, r+1)
			a.val = append(a.val, -1)
		}
		if i < m-1 {
			a.col = append(a.col, r+m)
			a.val = append(a.val, -1)
		}
		a.rowPtr = append(a.rowPtr, len(a.col))
	}
	return a
}

// neighbour describes the ghost entries exchanged with one other rank.
type neighbour struct {
	rank    int
	recvIdx []int     // positions in the ghost part of xl
	recvBuf []float64 // values received
	sendIdx []int     // local indices to send
	sendBuf []float64
}

// dist is one rank's part of the distributed matrix and vectors.
type dist struct {
	c          *mpi.Comm
	rank, size int
	n, lo, hi  int
	a          *csr // columns renumbered: local 0..nloc-1, ghosts nloc..
	xl         []float64
	y          []float64
	localRows  []int
	remoteRows []int
	nbrs       []*neighbour
	reqs       []*mpi.Request
}

func owner(n, size, g int) int {
	// block distribution lo = r*n/size
	r := g * size / n
	for r*n/size > g {
		r--
	}
	for (r+1)*n/size <= g {
		r++
	}
	return r
}

func newDist(c *mpi.Comm, m int) *dist {
	d := &dist{c: c, rank: c.Rank(), size: c.Size(), n: m * m}
	d.lo, d.hi = d.rank*d.n/d.size, (d.rank+1)*d.n/d.size
	nloc := d.hi - d.lo
	d.a = laplacian(m, d.lo, d.hi)
	// find ghost columns, grouped by owner
	ghosts := map[int]bool{}
	for _, g := range d.a.col {
		if g < d.lo || g >= d.hi {
			ghosts[g] = true
		}
	}
	gl := make([]int, 0, len(ghosts))
	for g := range ghosts {
		gl = append(gl, g)
	}
	sort.Ints(gl) // sorted by global index, hence by owner
	pos := map[int]int{}
	for k, g := range gl {
		pos[g] = nloc + k
	}
	// renumber columns and classify rows
	for r := 0; r < nloc; r++ {
		remote := false
		for k := d.a.rowPtr[r]; k < d.a.rowPtr[r+1]; k++ {
			g := d.a.col[k]
			if g >= d.lo && g < d.hi {
				d.a.col[k] = g - d.lo
			} else {
				d.a.col[k] = pos[g]
				remote = true
			}
		}
		if remote {
			d.remoteRows = append(d.remoteRows, r)
		} else {
			d.localRows = append(d.localRows, r)
		}
	}
	// how many I need from each rank
	need := make([]int, d.size)
	byOwner := make([][]int, d.size)
	for _, g := range gl {
		o := owner(d.n, d.size, g)
		need[o]++
		byOwner[o] = append(byOwner[o], g)
	}
	give := make([]int, d.size)
	mpi.Alltoall(c, need, give)
	sdispl, rdispl := make([]int, d.size), make([]int, d.size)
	sendList := make([]int, 0, len(gl))
	for o := 0; o < d.size; o++ {
		sdispl[o] = len(sendList)
		sendList = append(sendList, byOwner[o]...)
	}
	tot := 0
	for o := 0; o < d.size; o++ {
		rdispl[o] = tot
		tot += give[o]
	}
	asked := make([]int, tot)
	mpi.Alltoallv(c, sendList, need, sdispl, asked, give, rdispl)
	for o := 0; o < d.size; o++ {
		if need[o] == 0 && give[o] == 0 {
			continue
		}
		nb := &neighbour{rank: o}
		for _, g := range byOwner[o] {
			nb.recvIdx = append(nb.recvIdx, pos[g])
		}
		nb.recvBuf = make([]float64, need[o])
		for _, g := range asked[rdispl[o] : rdispl[o]+give[o]] {
			nb.sendIdx = append(nb.sendIdx, g-d.lo)
		}
		nb.sendBuf = make([]float64, give[o])
		d.nbrs = append(d.nbrs, nb)
	}
	d.xl = make([]float64, nloc+len(gl))
	d.y = make([]float64, nloc)
	for i := 0; i < nloc; i++ {
		d.xl[i] = 1 + 0.5*math.Sin(float64(d.lo+i))
	}
	return d
}

func (d *dist) rowsTimes(rows []int) {
	a := d.a
	for _, r := range rows {
		s := 0.0
		for k := a.rowPtr[r]; k < a.rowPtr[r+1]; k++ {
			s += a.val[k] * d.xl[a.col[k]]
		}
		d.y[r] = s
	}
}

// multiply computes y = A x, overlapping the ghost exchange with the
// local rows.
func (d *dist) multiply() {
	reqs := make([]*mpi.Request, 0, 2*len(d.nbrs))
	for _, nb := range d.nbrs {
		if len(nb.recvBuf) > 0 {
			reqs = append(reqs, mpi.Irecv(d.c, nb.recvBuf, nb.rank, 3))
		}
	}
	for _, nb := range d.nbrs {
		if len(nb.sendBuf) > 0 {
			for k, i := range nb.sendIdx {
				nb.sendBuf[k] = d.xl[i]
			}
			reqs = append(reqs, mpi.Isend(d.c, nb.sendBuf, nb.rank, 3))
		}
	}
	d.rowsTimes(d.localRows)
	mpi.Waitall(reqs...)
	for _, nb := range d.nbrs {
		for k, p := range nb.recvIdx {
			d.xl[p] = nb.recvBuf[k]
		}
	}
	d.rowsTimes(d.remoteRows)
}

// normalize sets x = y / |y| and returns |y|.
func (d *dist) normalize() float64 {
	s := 0.0
	for _, v := range d.y {
		s += v * v
	}
	in, out := []float64{s}, []float64{0}
	mpi.Allreduce(d.c, in, out, mpi.Sum)
	nrm := math.Sqrt(out[0])
	for i, v := range d.y {
		d.xl[i] = v / nrm
	}
	return nrm
}

// serial runs the same iteration on one process.
func serial(m, iters int) ([]float64, float64) {
	n := m * m
	a := laplacian(m, 0, n)
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = 1 + 0.5*math.Sin(float64(i))
	}
	nrm := 0.0
	for it := 0; it < iters; it++ {
		for r := 0; r < n; r++ {
			s := 0.0
			for k := a.rowPtr[r]; k < a.rowPtr[r+1]; k++ {
				s += a.val[k] * x[a.col[k]]
			}
			y[r] = s
		}
		ss := 0.0
		for _, v := range y {
			ss += v * v
		}
		nrm = math.Sqrt(ss)
		for i := range y {
			x[i] = y[i] / nrm
		}
	}
	return x, nrm
}

func run(c *mpi.Comm, cfg config) {
	rank, size := c.Rank(), c.Size()
	if cfg.m*cfg.m < size {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "spmv: grid too small for %d ranks\n", size)
		}
		c.Abort(2)
	}
	d := newDist(c, cfg.m)
	c.Barrier()
	t0 := mpi.Wtime()
	nrm := 0.0
	c.BeginInterval(1)
	for it := 0; it < cfg.iters; it++ {
		d.multiply()
		nrm = d.normalize()
	}
	c.EndInterval(1)
	t1 := mpi.Wtime()
	if cfg.check {
		nloc := d.hi - d.lo
		counts := make([]int, size)
		displs := make([]int, size)
		for r := 0; r < size; r++ {
			displs[r] = r * d.n / size
			counts[r] = (r+1)*d.n/size - displs[r]
		}
		var all []float64
		if rank == 0 {
			all = make([]float64, d.n)
		}
		mpi.Gatherv(c, d.xl[:nloc], all, counts, displs, 0)
		if rank == 0 {
			want, wn := serial(cfg.m, cfg.iters)
			maxd := math.Abs(nrm - wn)
			for i := range want {
				maxd = math.Max(maxd, math.Abs(all[i]-want[i]))
			}
			if maxd > 1e-9 {
				fmt.Printf("check: FAILED (max diff %.3g)\n", maxd)
				c.Abort(1)
			}
			fmt.Printf("check: ok (max diff %.3g, norm %.10f)\n", maxd, nrm)
		}
	}
	if rank == 0 {
		fmt.Printf("elapsed: %.4f s\n", t1-t0)
	}
}

func main() {
	m := flag.Int("m", 300, "grid side (matrix has m*m rows)")
	iters := flag.Int("iters", 300, "power iterations")
	check := flag.Bool("check", true, "compare with a serial run on rank 0")
	flag.Parse()
	cfg := config{m: *m, iters: *iters, check: *check}
	if cfg.m < 2 || cfg.iters < 1 {
		fmt.Fprintln(os.Stderr, "spmv: -m >= 2 and -iters >= 1 required")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, cfg) })
}
