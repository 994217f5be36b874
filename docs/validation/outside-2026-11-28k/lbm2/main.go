// Command lbm2 is lbm with the populations in slices of slices
// (f, tmp [][]float64) instead of arrays of slices ([9][]float64): a
// work-around of the tool's fault with a store through an array field.
//
// lbm runs a 2-D lattice Boltzmann (D2Q9, BGK) simulation of a
// decaying shear wave on a periodic nx x ny lattice. The rows are split into
// blocks over the ranks (a ring: the lattice is periodic in y too). Every
// step each rank collides its rows, exchanges with its two neighbours the
// post-collision populations that cross the block boundary (three of the
// nine directions each way, packed into one buffer), and streams. Every
// -every steps the ranks sum mass and momentum with Allreduce.
//
//	go run . -np 4 -nx 256 -ny 256 -steps 400
//
// With -check (default), rank 0 gathers density and velocity and compares
// them with a serial run of the same lattice code.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

// D2Q9 velocity set and weights.
var (
	ex  = [9]int{0, 1, 0, -1, 0, 1, -1, -1, 1}
	ey  = [9]int{0, 0, 1, 0, -1, 1, 1, -1, -1}
	wts = [9]float64{4.0 / 9, 1.0 / 9, 1.0 / 9, 1.0 / 9, 1.0 / 9, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36}
)

// up and down list the directions that move to the next or previous row.
var (
	up   = [3]int{2, 5, 6}
	down = [3]int{4, 7, 8}
)

type config struct {
	nx, ny, steps, every int
	tau                  float64
	check                bool
}

// lattice is one rank's block of rows, with one halo row below (row 0) and
// one above (row rows+1).
type lattice struct {
	nx, rows, y0 int
	omega        float64
	f, tmp       [][]float64
	sendUp       []float64
	sendDown     []float64
	recvUp       []float64
	recvDown     []float64
}

func newLattice(nx, rows, y0, ny int, tau float64) *lattice {
	l := &lattice{nx: nx, rows: rows, y0: y0, omega: 1 / tau}
	l.f, l.tmp = make([][]float64, 9), make([][]float64, 9)
	for k := range 9 {
		l.f[k] = make([]float64, (rows+2)*nx)
		l.tmp[k] = make([]float64, (rows+2)*nx)
	}
	l.sendUp = make([]float64, 3*nx)
	l.sendDown = make([]float64, 3*nx)
	l.recvUp = make([]float64, 3*nx)
	l.recvDown = make([]float64, 3*nx)
	l.init(ny)
	return l
}

// init sets equilibrium populations of a shear wave u_x = U sin(2 pi y/ny)
// with a small density bump.
func (l *lattice) init(ny int) {
	for j := 1; j <= l.rows; j++ {
		y := float64(l.y0 + j - 1)
		for i := range l.nx {
			x := float64(i)
			rho := 1 + 0.01*math.Cos(2*math.Pi*x/float64(l.nx))
			ux := 0.05 * math.Sin(2*math.Pi*y/float64(ny))
			uy := 0.02 * math.Sin(2*math.Pi*x/float64(l.nx))
			for k := range 9 {
				l.f[k][j*l.nx+i] = feq(k, rho, ux, uy)
			}
		}
	}
}

func feq(k int, rho, ux, uy float64) float64 {
	eu := float64(ex[k])*ux + float64(ey[k])*uy
	return wts[k] * rho * (1 + 3*eu + 4.5*eu*eu - 1.5*(ux*ux+uy*uy))
}

// collide relaxes every interior cell towards its equilibrium.
func (l *lattice) collide() {
	for j := 1; j <= l.rows; j++ {
		for i := range l.nx {
			c := j*l.nx + i
			var fc [9]float64
			rho, mx, my := 0.0, 0.0, 0.0
			for k := range 9 {
				fc[k] = l.f[k][c]
				rho += fc[k]
				mx += float64(ex[k]) * fc[k]
				my += float64(ey[k]) * fc[k]
			}
			ux, uy := mx/rho, my/rho
			for k := range 9 {
				l.f[k][c] = fc[k] - l.omega*(fc[k]-feq(k, rho, ux, uy))
			}
		}
	}
}

// pack copies the populations of dirs in row j into buf.
func (l *lattice) pack(buf []float64, dirs [3]int, j int) {
	for d, k := range dirs {
		copy(buf[d*l.nx:(d+1)*l.nx], l.f[k][j*l.nx:(j+1)*l.nx])
	}
}

func (l *lattice) unpack(buf []float64, dirs [3]int, j int) {
	for d, k := range dirs {
		copy(l.f[k][j*l.nx:(j+1)*l.nx], buf[d*l.nx:(d+1)*l.nx])
	}
}

// exchange fills the halo rows with the neighbours' boundary populations
// that stream into this block.
func (l *lattice) exchange(c *mpi.Comm) {
	rank, size := c.Rank(), c.Size()
	above, below := (rank+1)%size, (rank-1+size)%size
	l.pack(l.sendUp, up, l.rows)
	l.pack(l.sendDown, down, 1)
	mpi.Sendrecv(c, l.sendUp, above, 1, l.recvDown, below, 1)
	mpi.Sendrecv(c, l.sendDown, below, 2, l.recvUp, above, 2)
	l.unpack(l.recvDown, up, 0)
	l.unpack(l.recvUp, down, l.rows+1)
}

// stream pulls each population from its upstream neighbour (periodic in x).
func (l *lattice) stream() {
	nx := l.nx
	for k := range 9 {
		src, dst := l.f[k], l.tmp[k]
		for j := 1; j <= l.rows; j++ {
			sj := j - ey[k]
			for i := range nx {
				si := i - ex[k]
				if si < 0 {
					si += nx
				} else if si >= nx {
					si -= nx
				}
				dst[j*nx+i] = src[sj*nx+si]
			}
		}
	}
	l.f, l.tmp = l.tmp, l.f
}

// moments returns the block's mass and momentum.
func (l *lattice) moments() [3]float64 {
	var m [3]float64
	for k := range 9 {
		for c := l.nx; c < (l.rows+1)*l.nx; c++ {
			m[0] += l.f[k][c]
			m[1] += float64(ex[k]) * l.f[k][c]
			m[2] += float64(ey[k]) * l.f[k][c]
		}
	}
	return m
}

// fields returns density, u_x, u_y of every interior cell, interleaved.
func (l *lattice) fields() []float64 {
	out := make([]float64, 0, 3*l.rows*l.nx)
	for c := l.nx; c < (l.rows+1)*l.nx; c++ {
		rho, mx, my := 0.0, 0.0, 0.0
		for k := range 9 {
			rho += l.f[k][c]
			mx += float64(ex[k]) * l.f[k][c]
			my += float64(ey[k]) * l.f[k][c]
		}
		out = append(out, rho, mx/rho, my/rho)
	}
	return out
}

// serialRun is the same simulation on one block, with the periodic halo
// copied locally.
func serialRun(cfg config) []float64 {
	l := newLattice(cfg.nx, cfg.ny, 0, cfg.ny, cfg.tau)
	for range cfg.steps {
		l.collide()
		l.pack(l.sendUp, up, l.rows)
		l.pack(l.sendDown, down, 1)
		l.unpack(l.sendUp, up, 0)
		l.unpack(l.sendDown, down, l.rows+1)
		l.stream()
	}
	return l.fields()
}

func run(c *mpi.Comm, cfg config) {
	rank, size := c.Rank(), c.Size()
	if cfg.ny < size {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "lbm: %d rows for %d ranks\n", cfg.ny, size)
		}
		c.Abort(2)
	}
	span := func(r int) (int, int) { return r * cfg.ny / size, (r + 1) * cfg.ny / size }
	lo, hi := span(rank)
	l := newLattice(cfg.nx, hi-lo, lo, cfg.ny, cfg.tau)

	local, total := make([]float64, 3), make([]float64, 3)
	m0 := l.moments()
	copy(local, m0[:])
	mpi.Allreduce(c, local, total, mpi.Sum)
	mass0 := total[0]
	maxDrift := 0.0

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for step := 1; step <= cfg.steps; step++ {
		l.collide()
		l.exchange(c)
		l.stream()
		if step%cfg.every == 0 {
			m := l.moments()
			copy(local, m[:])
			mpi.Allreduce(c, local, total, mpi.Sum)
			maxDrift = math.Max(maxDrift, math.Abs(total[0]-mass0)/mass0)
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if !cfg.check {
		if rank == 0 {
			fmt.Printf("lbm: nx=%d ny=%d steps=%d ranks=%d mass=%.12f\nelapsed: %.6f s\n", cfg.nx, cfg.ny, cfg.steps, size, total[0], elapsed)
		}
		return
	}
	counts, displs := make([]int, size), make([]int, size)
	for r := range size {
		a, b := span(r)
		counts[r], displs[r] = 3*(b-a)*cfg.nx, 3*a*cfg.nx
	}
	var all []float64
	if rank == 0 {
		all = make([]float64, 3*cfg.nx*cfg.ny)
	}
	mpi.Gatherv(c, l.fields(), all, counts, displs, 0)
	if rank != 0 {
		return
	}
	fmt.Printf("lbm: nx=%d ny=%d steps=%d ranks=%d mass=%.12f drift=%.2e\n", cfg.nx, cfg.ny, cfg.steps, size, total[0], maxDrift)
	if maxDrift > 1e-12 {
		fmt.Fprintf(os.Stderr, "lbm: check failed: mass drifted by %.3e\n", maxDrift)
		c.Abort(1)
	}
	want := serialRun(cfg)
	for i := range want {
		if d := math.Abs(all[i] - want[i]); d > 1e-12 {
			fmt.Fprintf(os.Stderr, "lbm: check failed at cell %d field %d: %.17g vs serial %.17g\n", i/3, i%3, all[i], want[i])
			c.Abort(1)
		}
	}
	fmt.Printf("check: mass conserved, field equals the serial run\nelapsed: %.6f s\n", elapsed)
}

func main() {
	var cfg config
	flag.IntVar(&cfg.nx, "nx", 128, "lattice columns")
	flag.IntVar(&cfg.ny, "ny", 128, "lattice rows (split over the ranks)")
	flag.IntVar(&cfg.steps, "steps", 600, "time steps")
	flag.IntVar(&cfg.every, "every", 20, "sum mass and momentum every this many steps")
	flag.Float64Var(&cfg.tau, "tau", 0.8, "BGK relaxation time")
	flag.BoolVar(&cfg.check, "check", true, "compare with a serial run on rank 0")
	flag.Parse()
	if cfg.nx < 1 || cfg.every < 1 || cfg.tau <= 0.5 {
		fmt.Fprintln(os.Stderr, "lbm: need -nx >= 1, -every >= 1, -tau > 0.5")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, cfg) })
}
