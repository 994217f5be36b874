// Command cartgrid runs Jacobi iterations of Laplace's equation on an
// n x n grid (the top edge held at 1, the other edges at 0) split in
// blocks over a px x py grid of ranks. The grid of ranks is made with
// Comm.Split into a row communicator (ranks of one process row, ordered
// by column) and a column communicator. Each step posts Irecv and Isend
// of the four edges (east/west on the row communicator, north/south on
// the column communicator), updates the block's interior while the
// messages travel, waits for all eight requests with Waitall, and then
// updates the block's edge points. Every -every steps the squared change
// is summed over the row communicator (Allreduce), reduced down the
// column to process row 0 and broadcast back up the column (Bcast), so
// every rank knows the global change. With -check rank 0 gathers the
// grid and compares it with a serial run.
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

type settings struct {
	n, steps, every int
	check           bool
}

func main() {
	var s settings
	flag.IntVar(&s.n, "n", 400, "interior points per side")
	flag.IntVar(&s.steps, "steps", 200, "Jacobi steps")
	flag.IntVar(&s.every, "every", 10, "steps between global change sums")
	flag.BoolVar(&s.check, "check", false, "compare with a serial run on rank 0")
	flag.Parse()
	if s.n < 1 || s.steps < 0 || s.every < 1 {
		fmt.Fprintln(os.Stderr, "cartgrid: -n and -every must be at least 1, -steps at least 0")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, s) })
}

// dims splits p ranks into px rows and py columns, px <= py, as square
// as possible.
func dims(p int) (px, py int) {
	px = int(math.Sqrt(float64(p)))
	for p%px != 0 {
		px--
	}
	return px, p / px
}

// span is the part [lo, hi) of n points that index i of k gets.
func span(n, k, i int) (lo, hi int) { return i * n / k, (i + 1) * n / k }

// topo is this rank's place in the process grid.
type topo struct {
	world, row, col *mpi.Comm
	px, py, pi, pj  int
	north, south    int // ranks in col, or -1
	west, east      int // ranks in row, or -1
}

func newTopo(c *mpi.Comm) *topo {
	t := &topo{world: c}
	t.px, t.py = dims(c.Size())
	t.pi, t.pj = c.Rank()/t.py, c.Rank()%t.py
	t.row = c.Split(t.pi, t.pj)
	t.col = c.Split(t.pj, t.pi)
	t.north, t.south, t.west, t.east = t.pi-1, t.pi+1, t.pj-1, t.pj+1
	if t.south == t.px {
		t.south = -1
	}
	if t.east == t.py {
		t.east = -1
	}
	return t
}

// field is a block of rows x cols points with a halo of one on each
// side; (i, j) for 1 <= i <= rows, 1 <= j <= cols is the global point
// (i0+i-1, j0+j-1) of the interior.
type field struct {
	rows, cols, w int
	i0, j0        int
	u, v          []float64 // current and next
}

func newField(n int, t *topo) *field {
	ilo, ihi := span(n, t.px, t.pi)
	jlo, jhi := span(n, t.py, t.pj)
	f := &field{rows: ihi - ilo, cols: jhi - jlo, i0: ilo, j0: jlo}
	f.w = f.cols + 2
	f.u = make([]float64, (f.rows+2)*f.w)
	f.v = make([]float64, (f.rows+2)*f.w)
	if ilo == 0 { // the top boundary is this block's north halo
		for j := range f.w {
			f.u[j], f.v[j] = 1, 1
		}
	}
	return f
}

func (f *field) at(i, j int) int { return i*f.w + j }

// relax updates rows i0..i1 and columns j0..j1 (inclusive) into v and
// returns the sum of the squared changes.
func (f *field) relax(i0, i1, j0, j1 int) float64 {
	s := 0.0
	w := f.w
	for i := i0; i <= i1; i++ {
		for j := j0; j <= j1; j++ {
			k := i*w + j
			x := 0.25 * (f.u[k-w] + f.u[k+w] + f.u[k-1] + f.u[k+1])
			d := x - f.u[k]
			s += d * d
			f.v[k] = x
		}
	}
	return s
}

// halo holds the edge buffers and requests of one exchange.
type halo struct {
	sendW, sendE, recvW, recvE []float64
	reqs                       []*mpi.Request
}

func newHalo(f *field) *halo {
	return &halo{
		sendW: make([]float64, f.rows), sendE: make([]float64, f.rows),
		recvW: make([]float64, f.rows), recvE: make([]float64, f.rows),
		reqs: make([]*mpi.Request, 0, 8),
	}
}

// post starts the exchange of the four edges of f.u.
func (h *halo) post(t *topo, f *field) {
	h.reqs = h.reqs[:0]
	if t.north >= 0 {
		h.reqs = append(h.reqs,
			mpi.Irecv(t.col, f.u[0:f.w], t.north, 0),
			mpi.Isend(t.col, f.u[f.w:2*f.w], t.north, 1))
	}
	if t.south >= 0 {
		r := f.rows
		h.reqs = append(h.reqs,
			mpi.Irecv(t.col, f.u[(r+1)*f.w:(r+2)*f.w], t.south, 1),
			mpi.Isend(t.col, f.u[r*f.w:(r+1)*f.w], t.south, 0))
	}
	if t.west >= 0 {
		for i := range f.rows {
			h.sendW[i] = f.u[f.at(i+1, 1)]
		}
		h.reqs = append(h.reqs,
			mpi.Irecv(t.row, h.recvW, t.west, 2),
			mpi.Isend(t.row, h.sendW, t.west, 3))
	}
	if t.east >= 0 {
		for i := range f.rows {
			h.sendE[i] = f.u[f.at(i+1, f.cols)]
		}
		h.reqs = append(h.reqs,
			mpi.Irecv(t.row, h.recvE, t.east, 3),
			mpi.Isend(t.row, h.sendE, t.east, 2))
	}
}

// finish waits for the exchange and copies the side columns in.
func (h *halo) finish(t *topo, f *field) {
	mpi.Waitall(h.reqs...)
	if t.west >= 0 {
		for i := range f.rows {
			f.u[f.at(i+1, 0)] = h.recvW[i]
		}
	}
	if t.east >= 0 {
		for i := range f.rows {
			f.u[f.at(i+1, f.cols+1)] = h.recvE[i]
		}
	}
}

// edges updates the block's outermost rows and columns (those that read
// the halo) and returns their squared change.
func (f *field) edges() float64 {
	r, c := f.rows, f.cols
	s := f.relax(1, 1, 1, c)
	if r > 1 {
		s += f.relax(r, r, 1, c)
	}
	if r > 2 {
		s += f.relax(2, r-1, 1, 1)
		if c > 1 {
			s += f.relax(2, r-1, c, c)
		}
	}
	return s
}

// step is one Jacobi step with the exchange overlapped by the interior.
func step(t *topo, f *field, h *halo) float64 {
	h.post(t, f)
	s := f.relax(2, f.rows-1, 2, f.cols-1)
	h.finish(t, f)
	s += f.edges()
	f.u, f.v = f.v, f.u
	return s
}

// globalSum sums x over the row, then down the column to process row 0,
// and broadcasts the total up the column.
func globalSum(t *topo, x float64) float64 {
	in, out := []float64{x}, []float64{0}
	mpi.Allreduce(t.row, in, out, mpi.Sum)
	tot := []float64{0}
	mpi.Reduce(t.col, out, tot, mpi.Sum, 0)
	mpi.Bcast(t.col, tot, 0)
	return tot[0]
}

func run(c *mpi.Comm, s settings) {
	t := newTopo(c)
	if t.px > s.n || t.py > s.n {
		if c.Rank() == 0 {
			fmt.Fprintf(os.Stderr, "cartgrid: a %d x %d process grid does not fit %d points per side\n", t.px, t.py, s.n)
		}
		c.Abort(2)
	}
	f := newField(s.n, t)
	h := newHalo(f)

	change := math.Inf(1)
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for it := 1; it <= s.steps; it++ {
		d := step(t, f, h)
		if it%s.every == 0 {
			change = math.Sqrt(globalSum(t, d))
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if !s.check {
		if c.Rank() == 0 {
			fmt.Printf("cartgrid: %d x %d, %d steps on %d x %d ranks, change %.3e, %.3f s\n", s.n, s.n, s.steps, t.px, t.py, change, elapsed)
		}
		return
	}
	checkResult(c, t, f, s, change, elapsed)
}

// checkResult gathers the blocks on rank 0 and compares them and the
// last change with a serial run.
func checkResult(c *mpi.Comm, t *topo, f *field, s settings, change, elapsed float64) {
	mine := make([]float64, 0, f.rows*f.cols)
	for i := 1; i <= f.rows; i++ {
		mine = append(mine, f.u[f.at(i, 1):f.at(i, f.cols+1)]...)
	}
	size := c.Size()
	counts, displs := make([]int, size), make([]int, size)
	for r := range size {
		ilo, ihi := span(s.n, t.px, r/t.py)
		jlo, jhi := span(s.n, t.py, r%t.py)
		counts[r] = (ihi - ilo) * (jhi - jlo)
		if r > 0 {
			displs[r] = displs[r-1] + counts[r-1]
		}
	}
	var all []float64
	if c.Rank() == 0 {
		all = make([]float64, s.n*s.n)
	}
	mpi.Gatherv(c, mine, all, counts, displs, 0)
	if c.Rank() != 0 {
		return
	}
	one := &topo{px: 1, py: 1, north: -1, south: -1, west: -1, east: -1}
	g := newField(s.n, one)
	schange := math.Inf(1)
	for it := 1; it <= s.steps; it++ {
		d := g.relax(1, g.rows, 1, g.cols)
		g.u, g.v = g.v, g.u
		if it%s.every == 0 {
			schange = math.Sqrt(d)
		}
	}
	worst := 0.0
	for r := range size {
		ilo, ihi := span(s.n, t.px, r/t.py)
		jlo, jhi := span(s.n, t.py, r%t.py)
		k := displs[r]
		for i := ilo; i < ihi; i++ {
			for j := jlo; j < jhi; j++ {
				worst = max(worst, math.Abs(all[k]-g.u[g.at(i+1, j+1)]))
				k++
			}
		}
	}
	if worst != 0 || math.Abs(change-schange) > 1e-9*schange {
		fmt.Fprintf(os.Stderr, "cartgrid: check failed: largest difference %.3e, change %.6e (serial %.6e)\n", worst, change, schange)
		c.Abort(1)
	}
	fmt.Printf("cartgrid: %d x %d, %d steps on %d x %d ranks, change %.3e, %.3f s, check passed\n", s.n, s.n, s.steps, t.px, t.py, change, elapsed)
}
