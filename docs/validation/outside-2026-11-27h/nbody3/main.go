// Command nbody integrates -n gravitating bodies for -steps time steps with
// direct O(n^2) forces. Each rank owns a block of n/P bodies; the forces
// come from a ring pipeline: a travelling copy of a block (positions and
// masses) is passed to the next rank with Sendrecv P-1 times per step,
// and each rank adds the forces of the travelling bodies on its own. Then
// every rank moves its bodies (leapfrog / kick-drift). With -check rank 0
// gathers the positions and compares them with a serial run.
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

type settings struct {
	n, steps int
	dt, eps  float64
	seed     uint64
	check    bool
}

type vec3 struct{ x, y, z float64 }

func (a vec3) add(b vec3) vec3      { return vec3{a.x + b.x, a.y + b.y, a.z + b.z} }
func (a vec3) sub(b vec3) vec3      { return vec3{a.x - b.x, a.y - b.y, a.z - b.z} }
func (a vec3) scale(s float64) vec3 { return vec3{a.x * s, a.y * s, a.z * s} }
func (a vec3) norm2() float64       { return a.x*a.x + a.y*a.y + a.z*a.z }

// bodies is a block in structure-of-arrays form packed for messages:
// x, y, z, m per body in one []float64.
type bodies struct {
	buf []float64
}

func (b bodies) len() int             { return len(b.buf) / 4 }
func (b bodies) pos(i int) vec3       { return vec3{b.buf[4*i], b.buf[4*i+1], b.buf[4*i+2]} }
func (b bodies) mass(i int) float64   { return b.buf[4*i+3] }
func (b bodies) setPos(i int, p vec3) { b.buf[4*i], b.buf[4*i+1], b.buf[4*i+2] = p.x, p.y, p.z }

func initBodies(s settings, lo, hi int) (bodies, []vec3) {
	b := bodies{buf: make([]float64, 4*(hi-lo))}
	vel := make([]vec3, hi-lo)
	for i := lo; i < hi; i++ {
		r := rand.New(rand.NewPCG(s.seed, uint64(i)))
		b.setPos(i-lo, vec3{r.Float64(), r.Float64(), r.Float64()})
		b.buf[4*(i-lo)+3] = (0.5 + r.Float64()) / float64(s.n)
		vel[i-lo] = vec3{r.NormFloat64() * 0.01, r.NormFloat64() * 0.01, r.NormFloat64() * 0.01}
	}
	return b, vel
}

// accumulate adds to acc the accelerations of the bodies of mine from those of other.
func accumulate(mine, other bodies, acc []vec3, eps2 float64) {
	for i := range acc {
		pi := mine.pos(i)
		a := acc[i]
		for j := 0; j < len(other.buf)/4; j++ { // nbody3: no method (faults 1, 2)
			d := other.pos(j).sub(pi)
			r2 := d.norm2() + eps2
			inv := 1 / (r2 * math.Sqrt(r2))
			a = a.add(d.scale(other.mass(j) * inv))
		}
		acc[i] = a
	}
}

func step(mine bodies, vel, acc []vec3, dt float64) {
	for i := range vel {
		vel[i] = vel[i].add(acc[i].scale(dt))
		mine.setPos(i, mine.pos(i).add(vel[i].scale(dt)))
	}
}

func main() {
	var s settings
	flag.IntVar(&s.n, "n", 3000, "bodies")
	flag.IntVar(&s.steps, "steps", 10, "time steps")
	flag.Float64Var(&s.dt, "dt", 1e-3, "time step")
	flag.Float64Var(&s.eps, "eps", 1e-2, "softening length")
	flag.Uint64Var(&s.seed, "seed", 1, "seed")
	flag.BoolVar(&s.check, "check", false, "compare with a serial run on rank 0")
	flag.Parse()
	if s.n < 1 || s.steps < 0 {
		fmt.Fprintln(os.Stderr, "nbody: need -n >= 1 and -steps >= 0")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, s) })
}

func run(c *mpi.Comm, s settings) {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*s.n/size, (rank+1)*s.n/size
	mine, vel := initBodies(s, lo, hi)
	acc := make([]vec3, hi-lo)
	// the travelling block is sized for the largest block
	maxBlock := (s.n + size - 1) / size
	travel := bodies{buf: make([]float64, 0, 4*maxBlock)}
	incoming := make([]float64, 4*maxBlock)
	right, left := (rank+1)%size, (rank+size-1)%size
	eps2 := s.eps * s.eps

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for t := 0; t < s.steps; t++ {
		clear(acc)
		travel.buf = append(travel.buf[:0], mine.buf...)
		accumulate(mine, travel, acc, eps2)
		owner := rank
		for shift := 1; shift < size; shift++ {
			// blocks may differ in length by one body: send the
			// padded buffer, the length follows from the owner
			sendLen := len(travel.buf)
			send := travel.buf[:cap(travel.buf)]
			for i := sendLen; i < len(send); i++ {
				send[i] = 0
			}
			mpi.Sendrecv(c, send, right, 0, incoming, left, 0)
			owner = (owner + size - 1) % size
			olo, ohi := owner*s.n/size, (owner+1)*s.n/size
			travel.buf = append(travel.buf[:0], incoming[:4*(ohi-olo)]...)
			accumulate(mine, travel, acc, eps2)
		}
		step(mine, vel, acc, s.dt)
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	var all []float64
	var counts, displs []int
	if s.check {
		counts, displs = make([]int, size), make([]int, size)
		for r := range size {
			counts[r] = 4 * ((r+1)*s.n/size - r*s.n/size)
			displs[r] = 4 * (r * s.n / size)
		}
		if rank == 0 {
			all = make([]float64, 4*s.n)
		}
		mpi.Gatherv(c, mine.buf, all, counts, displs, 0)
	}
	if rank != 0 {
		return
	}
	fmt.Printf("nbody: n=%d steps=%d ranks=%d, body 0 at %.6f\n", s.n, s.steps, size, mine.pos(0))
	fmt.Printf("elapsed: %.6f s\n", elapsed)
	if !s.check {
		return
	}
	ser, svel := initBodies(s, 0, s.n)
	sacc := make([]vec3, s.n)
	for t := 0; t < s.steps; t++ {
		clear(sacc)
		accumulate(ser, ser, sacc, eps2)
		step(ser, svel, sacc, s.dt)
	}
	worst := 0.0
	for i := range ser.buf {
		worst = max(worst, math.Abs(ser.buf[i]-all[i]))
	}
	// the summation order differs (blocks in ring order), so allow rounding
	if worst > 1e-9 {
		fmt.Fprintf(os.Stderr, "nbody: check failed: positions differ by %.3g\n", worst)
		os.Exit(1)
	}
	fmt.Printf("nbody: check passed (largest difference %.2g)\n", worst)
}
