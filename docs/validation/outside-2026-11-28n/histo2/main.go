// Command histo moves n particles in [0, 1) under a harmonic trap
// (acceleration -k (x - 1/2)) with reflecting walls, the domain split into
// one slab per rank. Every step each rank moves its particles, bins their
// positions into a histogram (bin = floor(x * bins)), and hands particles
// that left its slab to the neighbour slab: the counts first (Sendrecv),
// then the payload of variable size (Sendrecv). The histograms are summed
// with Reduce on rank 0 and the particle count checked with Allreduce.
// -check reruns every particle serially on rank 0 and compares histograms.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type params struct {
	n, steps, bins int
	dt, k          float64
	check          bool
}

// particle is one particle; id is its global index.
type particle struct {
	x, v float64
	id   int64
}

// xorshift64* seeded by the particle's id.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s ^= r.s >> 12
	r.s ^= r.s << 25
	r.s ^= r.s >> 27
	return r.s * 2685821657736338717
}

func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// newParticle makes particle i of n deterministically: x in cell i of n.
func newParticle(i, n int) particle {
	r := rng{uint64(i)*0x9E3779B97F4A7C15 + 1}
	x := (float64(i) + r.float()) / float64(n)
	v := (r.float() - 0.5) * 0.4
	return particle{x: x, v: v, id: int64(i)}
}

// move advances p by one step.
func (p *particle) move(dt, k float64) {
	p.v -= k * (p.x - 0.5) * dt
	p.x += p.v * dt
	if p.x < 0 {
		p.x = -p.x
		p.v = -p.v
	}
	if p.x >= 1 {
		p.x = 2 - p.x - 1e-15
		p.v = -p.v
	}
}

// slab is one rank's part of the domain [xlo, xhi).
type slab struct {
	c          *mpi.Comm
	xlo, xhi   float64
	parts      []particle
	hist       []int64
	left, rght []particle
	sbuf, rbuf []float64
}

func newSlab(c *mpi.Comm, p params) *slab {
	rank, size := c.Rank(), c.Size()
	lo, hi := rank*p.n/size, (rank+1)*p.n/size
	s := &slab{c: c, xlo: float64(lo) / float64(p.n), xhi: float64(hi) / float64(p.n)}
	if rank == size-1 {
		s.xhi = 2 // the last slab takes everything up to the wall
	}
	if rank == 0 {
		s.xlo = -1
	}
	s.generate(lo, hi, p.n)
	s.hist = make([]int64, p.bins)
	return s
}

func (s *slab) generate(lo, hi, n int) {
	s.parts = make([]particle, 0, hi-lo)
	for i := lo; i < hi; i++ {
		s.parts = append(s.parts, newParticle(i, n))
	}
}

// step moves and bins every particle and sorts out the leavers.
func (s *slab) step(p params) {
	s.left, s.rght = s.left[:0], s.rght[:0]
	keep := s.parts[:0]
	nb := float64(len(s.hist))
	for i := range s.parts {
		q := s.parts[i]
		q.move(p.dt, p.k)
		s.hist[int(q.x*nb)]++
		switch {
		case q.x < s.xlo:
			s.left = append(s.left, q)
		case q.x >= s.xhi:
			s.rght = append(s.rght, q)
		default:
			keep = append(keep, q)
		}
	}
	s.parts = keep
}

func pack(buf []float64, ps []particle) []float64 {
	buf = buf[:0]
	for _, q := range ps {
		buf = append(buf, q.x, q.v, float64(q.id))
	}
	return buf
}

func (s *slab) unpack(buf []float64) {
	for i := 0; i+2 < len(buf); i += 3 {
		s.parts = append(s.parts, particle{x: buf[i], v: buf[i+1], id: int64(buf[i+2])})
	}
}

// exchange sends the leavers to the neighbours: counts, then payloads.
func (s *slab) exchange() {
	rank, size := s.c.Rank(), s.c.Size()
	if size == 1 {
		return
	}
	left, right := rank-1, rank+1
	// rightward: send s.rght to right, receive from left
	for dir := 0; dir < 2; dir++ {
		out, to, from := s.rght, right, left
		if dir == 1 {
			out, to, from = s.left, left, right
		}
		if (to < 0 || to >= size) && len(out) > 0 { // histo: len(out) > 0 && (...)
			panic(fmt.Sprintf("rank %d: particle left the domain", rank))
		}
		cnt := []int64{int64(len(out))}
		in := []int64{0}
		switch {
		case to >= 0 && to < size && from >= 0 && from < size:
			mpi.Sendrecv(s.c, cnt, to, 10+dir, in, from, 10+dir)
		case to >= 0 && to < size:
			mpi.Send(s.c, cnt, to, 10+dir)
		case from >= 0 && from < size:
			mpi.Recv(s.c, in, from, 10+dir)
		}
		s.sbuf = pack(s.sbuf, out)
		if need := 3 * int(in[0]); cap(s.rbuf) < need {
			s.rbuf = make([]float64, need)
		}
		rb := s.rbuf[:3*int(in[0])]
		switch {
		case to >= 0 && to < size && from >= 0 && from < size:
			mpi.Sendrecv(s.c, s.sbuf, to, 20+dir, rb, from, 20+dir)
		case to >= 0 && to < size:
			mpi.Send(s.c, s.sbuf, to, 20+dir)
		case from >= 0 && from < size:
			mpi.Recv(s.c, rb, from, 20+dir)
		}
		s.unpack(rb)
	}
}

func main() {
	n := flag.Int("n", 400000, "particles")
	steps := flag.Int("steps", 120, "time steps")
	bins := flag.Int("bins", 1000, "histogram bins")
	dt := flag.Float64("dt", 0.002, "time step")
	k := flag.Float64("k", 40, "trap strength")
	check := flag.Bool("check", true, "compare with a serial run on rank 0")
	flag.Parse()
	p := params{*n, *steps, *bins, *dt, *k, *check}
	if p.n < 1 || p.steps < 0 || p.bins < 1 {
		fmt.Fprintln(os.Stderr, "histo: bad arguments")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

func run(c *mpi.Comm, p params) {
	s := newSlab(c, p)
	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for t := 0; t < p.steps; t++ {
		s.step(p)
		s.exchange()
	}
	c.EndInterval(1)
	total := make([]int64, p.bins)
	mpi.Reduce(c, s.hist, total, mpi.Sum, 0)
	cnt, all := []int64{int64(len(s.parts))}, []int64{0}
	mpi.Allreduce(c, cnt, all, mpi.Sum)
	elapsed := mpi.Wtime() - t0
	if c.Rank() != 0 {
		return
	}
	peak := 0
	for b := range total {
		if total[b] > total[peak] {
			peak = b
		}
	}
	fmt.Printf("histo: n=%d steps=%d bins=%d ranks=%d particles=%d peak bin %d (%d)\n", p.n, p.steps, p.bins, c.Size(), all[0], peak, total[peak])
	if p.check {
		want := serial(p)
		bad := all[0] != int64(p.n)
		for b := range want {
			if want[b] != total[b] {
				bad = true
			}
		}
		if bad {
			fmt.Fprintln(os.Stderr, "check: FAILED")
			c.Abort(1)
		}
		fmt.Println("check: ok")
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

func serial(p params) []int64 {
	h := make([]int64, p.bins)
	nb := float64(p.bins)
	for i := 0; i < p.n; i++ {
		q := newParticle(i, p.n)
		for t := 0; t < p.steps; t++ {
			q.move(p.dt, p.k)
			h[int(q.x*nb)]++
		}
	}
	return h
}
