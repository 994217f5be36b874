// Command particles runs a short-range particle simulation in a box with
// a cell list: particles repel softly within a cut-off of one cell width,
// so each particle's force comes only from the 3 x 3 cells around its
// own. The box's cell columns are split in slabs over the ranks. Every
// step each rank bins its particles into cells (the lists are rebuilt
// from scratch), trades the particles of its edge columns with its
// neighbours as ghosts (Sendrecv of the count, then of the positions),
// computes forces, moves its particles, and hands those that left its
// slab to the neighbour that now owns them (again count, then data).
// How many particles a rank has, and how many each cell holds, depends on
// the data. With -check rank 0 gathers the particles and compares them
// with a serial run.
//
//	go run . -np 4 -check
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

type params struct {
	n, ncell, steps int
	dt              float64
	seed            uint64
	check           bool
}

func main() {
	var p params
	flag.IntVar(&p.n, "n", 20000, "particles")
	flag.IntVar(&p.ncell, "ncell", 100, "cells per side of the box (cell width 1)")
	flag.IntVar(&p.steps, "steps", 50, "time steps")
	flag.Float64Var(&p.dt, "dt", 0.02, "time step")
	flag.Uint64Var(&p.seed, "seed", 1, "random seed of the initial state")
	flag.BoolVar(&p.check, "check", false, "compare with a serial run on rank 0")
	flag.Parse()
	if p.n < 1 || p.ncell < 3 || p.steps < 0 {
		fmt.Fprintln(os.Stderr, "particles: need -n >= 1, -ncell >= 3, -steps >= 0")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

// Particle is one particle; ghosts (copies of a neighbour's edge
// particles) carry only a position.
type Particle struct {
	ID           int
	X, Y, VX, VY float64
	FX, FY       float64
}

// Kick adds the force's effect on the velocity over dt.
func (p *Particle) Kick(dt float64) {
	p.VX += p.FX * dt
	p.VY += p.FY * dt
}

// Drift moves the particle over dt and reflects it off the walls of the
// side x side box.
func (p *Particle) Drift(dt, side float64) {
	p.X += p.VX * dt
	p.Y += p.VY * dt
	if p.X < 0 {
		p.X, p.VX = -p.X, -p.VX
	} else if p.X >= side {
		p.X, p.VX = 2*side-p.X-1e-12, -p.VX
	}
	if p.Y < 0 {
		p.Y, p.VY = -p.Y, -p.VY
	} else if p.Y >= side {
		p.Y, p.VY = 2*side-p.Y-1e-12, -p.VY
	}
}

// Cell is the particle's cell column and row (cell width 1).
func (p Particle) Cell() (int, int) { return int(p.X), int(p.Y) }

// domain is one rank's slab: cell columns lo..hi-1 it owns, and one ghost
// column on each side. ps holds the owned particles, then the ghosts.
type domain struct {
	lo, hi, ncell int
	ps            []Particle
	owned         int
	cells         [][]int // (hi-lo+2) * ncell lists of indices into ps
}

func newDomain(lo, hi, ncell int) *domain {
	return &domain{lo: lo, hi: hi, ncell: ncell, cells: make([][]int, (hi-lo+2)*ncell)}
}

// cellIndex is the index in d.cells of global column cx, row cy.
func (d *domain) cellIndex(cx, cy int) int { return (cx-d.lo+1)*d.ncell + cy }

// bin rebuilds the cell lists from d.ps (owned particles and ghosts).
func (d *domain) bin() {
	for i := range d.cells {
		d.cells[i] = d.cells[i][:0]
	}
	for i, p := range d.ps {
		cx, cy := p.Cell()
		k := d.cellIndex(cx, cy)
		d.cells[k] = append(d.cells[k], i)
	}
}

// column packs X, Y of the owned particles in global column cx.
func (d *domain) column(cx int, buf []float64) []float64 {
	buf = buf[:0]
	for cy := range d.ncell {
		for _, i := range d.cells[d.cellIndex(cx, cy)] {
			buf = append(buf, d.ps[i].X, d.ps[i].Y)
		}
	}
	return buf
}

// forces sets FX, FY of every owned particle from the particles in the
// 3 x 3 cells around its cell.
func (d *domain) forces() {
	for cx := d.lo; cx < d.hi; cx++ {
		for cy := range d.ncell {
			for _, i := range d.cells[d.cellIndex(cx, cy)] {
				pi := &d.ps[i]
				fx, fy := 0.0, 0.0
				for nx := max(cx-1, 0); nx <= min(cx+1, d.ncell-1); nx++ {
					for ny := max(cy-1, 0); ny <= min(cy+1, d.ncell-1); ny++ {
						for _, j := range d.cells[d.cellIndex(nx, ny)] {
							if j == i {
								continue
							}
							dx, dy := pi.X-d.ps[j].X, pi.Y-d.ps[j].Y
							r2 := dx*dx + dy*dy
							if r2 >= 1 || r2 == 0 {
								continue
							}
							r := math.Sqrt(r2)
							s := 10 * (1 - r) / r
							fx += s * dx
							fy += s * dy
						}
					}
				}
				pi.FX, pi.FY = fx, fy
			}
		}
	}
}

// exchanger trades variable-length messages with the ranks to the left
// and right: first the count, then the data.
type exchanger struct {
	c           *mpi.Comm
	left, right int // -1 where there is none
	n, m        []int
	in          []float64
}

// swap sends out to dest and receives from src (either may be -1) and
// returns what arrived.
func (e *exchanger) swap(out []float64, dest, src, tag int) []float64 {
	e.n[0], e.m[0] = len(out), 0
	switch {
	case dest >= 0 && src >= 0:
		mpi.Sendrecv(e.c, e.n, dest, tag, e.m, src, tag)
	case dest >= 0:
		mpi.Send(e.c, e.n, dest, tag)
	case src >= 0:
		mpi.Recv(e.c, e.m, src, tag)
	}
	e.in = slices.Grow(e.in[:0], e.m[0])[:e.m[0]]
	switch {
	case dest >= 0 && src >= 0:
		mpi.Sendrecv(e.c, out, dest, tag+1, e.in, src, tag+1)
	case dest >= 0:
		mpi.Send(e.c, out, dest, tag+1)
	case src >= 0:
		mpi.Recv(e.c, e.in, src, tag+1)
	}
	return e.in
}

// step advances the slab by one time step. e is nil for a serial run.
func (d *domain) step(e *exchanger, dt float64, out []float64) []float64 {
	d.ps = d.ps[:d.owned]
	d.bin()
	if e != nil {
		// ghosts: my left column to the left, my right column to the right
		for _, dir := range [2]int{-1, 1} {
			dest, src, cx := e.left, e.right, d.lo
			if dir == 1 {
				dest, src, cx = e.right, e.left, d.hi-1
			}
			var send []float64
			if dest >= 0 {
				out = d.column(cx, out)
				send = out
			}
			in := e.swap(send, dest, src, 10+2*(dir+1))
			for k := 0; k+1 < len(in); k += 2 {
				d.ps = append(d.ps, Particle{ID: -1, X: in[k], Y: in[k+1]})
			}
		}
		d.bin()
	}
	d.forces()
	side := float64(d.ncell)
	for i := range d.ps[:d.owned] {
		d.ps[i].Kick(dt)
		d.ps[i].Drift(dt, side)
	}
	d.ps = d.ps[:d.owned]
	if e == nil {
		return out
	}
	// migration: particles that left the slab go to its new owner
	for _, dir := range [2]int{-1, 1} {
		dest, src := e.left, e.right
		if dir == 1 {
			dest, src = e.right, e.left
		}
		out = out[:0]
		keep := d.ps[:0]
		for _, p := range d.ps {
			cx, _ := p.Cell()
			if (dir == -1 && cx < d.lo) || (dir == 1 && cx >= d.hi) {
				out = append(out, float64(p.ID), p.X, p.Y, p.VX, p.VY)
			} else {
				keep = append(keep, p)
			}
		}
		d.ps = keep
		in := e.swap(out, dest, src, 20+2*(dir+1))
		for k := 0; k+4 < len(in); k += 5 {
			d.ps = append(d.ps, Particle{ID: int(in[k]), X: in[k+1], Y: in[k+2], VX: in[k+3], VY: in[k+4]})
		}
	}
	d.owned = len(d.ps)
	return out
}

// initial is the whole system's starting state, the same on every rank.
func initial(p params) []Particle {
	r := rand.New(rand.NewPCG(p.seed, 7))
	side := float64(p.ncell)
	ps := make([]Particle, p.n)
	for i := range ps {
		ps[i] = Particle{ID: i, X: r.Float64() * side, Y: r.Float64() * side,
			VX: r.NormFloat64() * 0.5, VY: r.NormFloat64() * 0.5}
	}
	return ps
}

func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	if size > p.ncell {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "particles: more ranks (%d) than cell columns (%d)\n", size, p.ncell)
		}
		c.Abort(2)
	}
	lo, hi := rank*p.ncell/size, (rank+1)*p.ncell/size
	d := newDomain(lo, hi, p.ncell)
	for _, q := range initial(p) {
		if cx, _ := q.Cell(); cx >= lo && cx < hi {
			d.ps = append(d.ps, q)
		}
	}
	d.owned = len(d.ps)
	e := &exchanger{c: c, left: rank - 1, right: rank + 1, n: make([]int, 1), m: make([]int, 1)}
	if rank == size-1 {
		e.right = -1
	}
	var out []float64

	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for range p.steps {
		out = d.step(e, p.dt, out)
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	counts := []int{d.owned}
	total := make([]int, 1)
	mpi.Allreduce(c, counts, total, mpi.Sum)
	if total[0] != p.n {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "particles: %d particles at the end, %d at the start\n", total[0], p.n)
		}
		c.Abort(1)
	}
	if !p.check {
		if rank == 0 {
			fmt.Printf("particles: %d particles, %d x %d cells, %d steps on %d ranks in %.3f s\n", p.n, p.ncell, p.ncell, p.steps, size, elapsed)
		}
		return
	}
	mine := make([]float64, 0, 5*d.owned)
	for _, q := range d.ps[:d.owned] {
		mine = append(mine, float64(q.ID), q.X, q.Y, q.VX, q.VY)
	}
	all := make([]int, size)
	mpi.Gather(c, []int{len(mine)}, all, 0)
	displs := make([]int, size)
	for r := 1; r < size; r++ {
		displs[r] = displs[r-1] + all[r-1]
	}
	var got []float64
	if rank == 0 {
		got = make([]float64, 5*p.n)
	}
	mpi.Gatherv(c, mine, got, all, displs, 0)
	if rank != 0 {
		return
	}
	s := newDomain(0, p.ncell, p.ncell)
	s.ps = initial(p)
	s.owned = len(s.ps)
	for range p.steps {
		s.step(nil, p.dt, nil)
	}
	worst := 0.0
	for k := 0; k < len(got); k += 5 {
		want := s.ps[int(got[k])] // the serial run never reorders
		for f, v := range [4]float64{want.X, want.Y, want.VX, want.VY} {
			worst = max(worst, math.Abs(v-got[k+1+f]))
		}
	}
	if worst > 1e-6 {
		fmt.Fprintf(os.Stderr, "particles: check failed: largest difference %.2e\n", worst)
		c.Abort(1)
	}
	fmt.Printf("particles: %d particles, %d x %d cells, %d steps on %d ranks in %.3f s, check passed (largest difference %.1e)\n",
		p.n, p.ncell, p.ncell, p.steps, size, elapsed, worst)
}
