// Command pic1d3 is pic1d2 with the final particles packed by index into a
// slice made at its length instead of by append (around fault 2(b)).
//
// pic1d2 is pic1d with the initial particles of a slab made by index
// (a known count) instead of filtered from all n by owner.
//
// pic1d moves particles in a periodic 1-D domain [0, 1) split into
// equal slabs, one per rank. Each step pushes every particle with a force
// that depends on its position (pulling them towards x = 0, so the ranks
// near it get more and more of them), sends the particles that left the slab
// to the left or right neighbour (first the counts with Sendrecv, then the
// particles packed as float64 slices), and deposits the slab's particles on a
// density grid. Every 10 steps the total kinetic energy and particle count
// are summed with Allreduce.
//
//	go run . -np 4 -particles 200000 -steps 100
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"sort"

	"github.com/parpredict/parpredict/mpi"
)

// particle is one particle; id is its global index, kept as a float64 so the
// whole struct packs into a float64 slice.
type particle struct {
	x, v, id float64
}

const (
	fields = 3    // float64s per packed particle
	dt     = 0.01 // time step
	kForce = 2.0  // strength of the force
)

// force is the acceleration at x.
func force(x float64) float64 { return -kForce * math.Sin(2*math.Pi*x) }

// push advances p by one step and wraps it into [0, 1).
func (p *particle) push() {
	p.v += force(p.x) * dt
	p.x += p.v * dt
	p.x -= math.Floor(p.x)
}

// initial is particle i of n.
func initial(i, n int) particle {
	h := uint64(i)*0x9E3779B97F4A7C15 + 12345
	h ^= h >> 31
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 29
	u := float64(h>>11) / (1 << 53)
	return particle{x: (float64(i) + 0.5) / float64(n), v: 0.5 * (u - 0.5), id: float64(i)}
}

// slab is one rank's part of the domain and its particles.
type slab struct {
	rank, size  int
	lo, hi      float64
	parts       []particle
	density     []float64 // cells of this slab
	left, right int
	sendL       []float64
	sendR       []float64
	recv        []float64
}

func newSlab(c *mpi.Comm, n, cells int) *slab {
	s := &slab{rank: c.Rank(), size: c.Size()}
	// the slab holds the initial particles first, last-1: particle i
	// starts at (i+0.5)/n, so the slab's edges are at first/n and last/n
	first, last := s.rank*n/s.size, (s.rank+1)*n/s.size
	s.lo, s.hi = float64(first)/float64(n), float64(last)/float64(n)
	s.left, s.right = (s.rank-1+s.size)%s.size, (s.rank+1)%s.size
	s.density = make([]float64, cells/s.size)
	s.parts = make([]particle, last-first)
	for i := range s.parts {
		s.parts[i] = initial(first+i, n)
	}
	return s
}

// inside reports whether x is in the slab.
func (s *slab) inside(x float64) bool { return x >= s.lo && x < s.hi }

// goesLeft reports whether x, outside the slab, belongs to the left
// neighbour (particles move less than a slab per step, so one found far
// above the slab has wrapped past 0, one far below it past 1).
func (s *slab) goesLeft(x float64) bool {
	return (x < s.lo && x >= s.lo/2) || x >= (s.hi+1)/2 // the latter wrapped past 0
}

// step pushes the particles and packs the ones that left into sendL / sendR.
func (s *slab) step() {
	s.sendL, s.sendR = s.sendL[:0], s.sendR[:0]
	kept := s.parts[:0]
	for _, p := range s.parts {
		p.push()
		switch {
		case s.inside(p.x):
			kept = append(kept, p)
		case s.goesLeft(p.x):
			s.sendL = append(s.sendL, p.x, p.v, p.id)
		default:
			s.sendR = append(s.sendR, p.x, p.v, p.id)
		}
	}
	s.parts = kept
}

// exchange sends buf to dest and appends what comes from src.
func (s *slab) exchange(c *mpi.Comm, buf []float64, dest, src, tag int) {
	out, in := []int64{int64(len(buf) / fields)}, []int64{0}
	mpi.Sendrecv(c, out, dest, tag, in, src, tag)
	m := int(in[0]) * fields
	if cap(s.recv) < m {
		s.recv = make([]float64, m)
	}
	s.recv = s.recv[:m]
	mpi.Sendrecv(c, buf, dest, tag+1, s.recv, src, tag+1)
	for k := 0; k < m; k += fields {
		s.parts = append(s.parts, particle{x: s.recv[k], v: s.recv[k+1], id: s.recv[k+2]})
	}
}

// deposit makes the density histogram of the slab's particles.
func (s *slab) deposit() {
	for i := range s.density {
		s.density[i] = 0
	}
	w := float64(len(s.density)) / (s.hi - s.lo)
	for _, p := range s.parts {
		k := min(int((p.x-s.lo)*w), len(s.density)-1)
		s.density[k]++
	}
}

// energy is the slab's kinetic energy.
func (s *slab) energy() float64 {
	e := 0.0
	for _, p := range s.parts {
		e += 0.5 * p.v * p.v
	}
	return e
}

func main() {
	n := flag.Int("particles", 300000, "number of particles")
	steps := flag.Int("steps", 100, "time steps")
	cells := flag.Int("cells", 4096, "density cells over the whole domain")
	check := flag.Bool("check", true, "compare with a serial run on rank 0")
	flag.Parse()
	if *n < 1 || *steps < 0 || *cells < 64 {
		fmt.Fprintln(os.Stderr, "pic1d: bad flags")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *steps, *cells, *check) })
}

func run(c *mpi.Comm, n, steps, cells int, check bool) {
	s := newSlab(c, n, cells)
	sums := make([]float64, 2)
	lost := false
	peak := 0.0

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for t := 1; t <= steps; t++ {
		s.step()
		s.exchange(c, s.sendL, s.left, s.right, 10)
		s.exchange(c, s.sendR, s.right, s.left, 20)
		s.deposit()
		for _, d := range s.density {
			peak = math.Max(peak, d)
		}
		if t%10 == 0 {
			mine := []float64{s.energy(), float64(len(s.parts))}
			mpi.Allreduce(c, mine, sums, mpi.Sum)
			if int(sums[1]) != n {
				lost = true
			}
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	// gather the final particles on rank 0
	counts := make([]int, c.Size())
	mine := []int64{int64(len(s.parts) * fields)}
	all := make([]int64, c.Size())
	mpi.Allgather(c, mine, all)
	displs := make([]int, c.Size())
	total := 0
	for r := range counts {
		counts[r], displs[r] = int(all[r]), total
		total += counts[r]
	}
	packed := make([]float64, len(s.parts)*fields)
	for k, p := range s.parts {
		packed[k*fields], packed[k*fields+1], packed[k*fields+2] = p.x, p.v, p.id
	}
	var got []float64
	if c.Rank() == 0 {
		got = make([]float64, total)
	}
	mpi.Gatherv(c, packed, got, counts, displs, 0)
	if c.Rank() != 0 {
		return
	}
	fmt.Printf("pic1d: particles=%d steps=%d ranks=%d energy=%.9g peak density=%g\n", n, steps, c.Size(), sums[0], peak)
	if check {
		if err := verify(got, n, steps, lost); err != "" {
			fmt.Fprintln(os.Stderr, "pic1d: check failed:", err)
			c.Abort(1)
		}
		fmt.Println("check: particle count conserved, positions equal the serial run")
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

// verify compares the gathered particles with a serial run.
func verify(got []float64, n, steps int, lost bool) string {
	if lost || len(got) != n*fields {
		return fmt.Sprintf("%d particles at the end (or lost on the way), want %d", len(got)/fields, n)
	}
	ps := make([]particle, n)
	for k := range ps {
		ps[k] = particle{got[k*fields], got[k*fields+1], got[k*fields+2]}
	}
	sort.Slice(ps, func(a, b int) bool { return ps[a].id < ps[b].id })
	for i := 0; i < n; i++ {
		want := initial(i, n)
		for t := 0; t < steps; t++ {
			want.push()
		}
		if ps[i] != want {
			return fmt.Sprintf("particle %d: %+v, serial %+v", i, ps[i], want)
		}
	}
	return ""
}
