// Command fft computes the 2-D discrete Fourier transform of an n x n
// complex128 array distributed by blocks of rows: every rank transforms
// its rows with an iterative radix-2 FFT (bit-reversal permutation, then
// butterflies in nested loops whose bounds are powers of two), the array
// is transposed with one Alltoall, and the rows (the former columns) are
// transformed again. The result is left transposed, as usual for a
// distributed FFT. The transform is repeated -reps times on fresh data.
// With -check rank 0 gathers the result and compares it with a serial
// 2-D FFT.
//
//	go run . -np 4 -check
package main

import (
	"flag"
	"fmt"
	"math"
	"math/bits"
	"math/cmplx"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

// Plan holds what one length-n transform needs: the bit-reversal
// permutation and the twiddle factors.
type Plan struct {
	n, logn int
	rev     []int
	tw      []complex128 // tw[j] = exp(-2 pi i j / n), j < n/2
}

// NewPlan makes a plan for length n, a power of two.
func NewPlan(n int) *Plan {
	logn := bits.TrailingZeros(uint(n))
	p := &Plan{n: n, logn: logn, rev: make([]int, n), tw: make([]complex128, n/2)}
	for i := 0; i < n; i++ {
		r := 0
		for b := 0; b < logn; b++ {
			if i&(1<<b) != 0 {
				r |= 1 << (logn - 1 - b)
			}
		}
		p.rev[i] = r
	}
	for j := range p.tw {
		p.tw[j] = cmplx.Rect(1, -2*math.Pi*float64(j)/float64(n))
	}
	return p
}

// permute puts x in bit-reversed order.
func (p *Plan) permute(x []complex128) {
	for i, r := range p.rev {
		if i < r {
			x[i], x[r] = x[r], x[i]
		}
	}
}

// Forward transforms x (length n) in place.
func (p *Plan) Forward(x []complex128) {
	p.permute(x)
	n := p.n
	for size := 2; size <= n; size <<= 1 {
		half := size >> 1
		step := n / size
		for start := 0; start < n; start += size {
			for j := 0; j < half; j++ {
				w := p.tw[j*step]
				a, b := x[start+j], w*x[start+j+half]
				x[start+j] = a + b
				x[start+j+half] = a - b
			}
		}
	}
}

// value is the input's element (i, j): a smooth part plus a deterministic
// pseudo-random one.
func value(i, j, n int) complex128 {
	h := uint64(i*n+j)*0x9E3779B97F4A7C15 + 12345
	h ^= h >> 29
	re := math.Sin(2*math.Pi*float64(3*i+j)/float64(n)) + float64(h%1000)/1000
	im := math.Cos(2*math.Pi*float64(i-5*j)/float64(n)) - float64((h>>20)%1000)/2000
	return complex(re, im)
}

// slab is one rank's rows.
type slab struct {
	c          *mpi.Comm
	n, nloc    int
	rows       [][]complex128
	send, recv []complex128
}

func newSlab(c *mpi.Comm, n int) *slab {
	nloc := n / c.Size()
	s := &slab{c: c, n: n, nloc: nloc, rows: make([][]complex128, nloc),
		send: make([]complex128, nloc*n), recv: make([]complex128, nloc*n)}
	for i := range s.rows {
		s.rows[i] = make([]complex128, n)
	}
	return s
}

func (s *slab) fill() {
	first := s.c.Rank() * s.nloc
	for i, row := range s.rows {
		for j := range row {
			row[j] = value(first+i, j, s.n)
		}
	}
}

func (s *slab) fftRows(p *Plan) {
	for _, row := range s.rows {
		p.Forward(row)
	}
}

// transpose swaps the rank's row block with the others' through one
// Alltoall: block q of the send buffer holds this rank's rows' columns
// q*nloc..(q+1)*nloc.
func (s *slab) transpose() {
	nloc, size := s.nloc, s.c.Size()
	blk := nloc * nloc
	for q := 0; q < size; q++ {
		for i := 0; i < nloc; i++ {
			copy(s.send[q*blk+i*nloc:q*blk+(i+1)*nloc], s.rows[i][q*nloc:(q+1)*nloc])
		}
	}
	mpi.Alltoall(s.c, s.send, s.recv)
	for q := 0; q < size; q++ {
		for i := 0; i < nloc; i++ {
			for j := 0; j < nloc; j++ {
				s.rows[j][q*nloc+i] = s.recv[q*blk+i*nloc+j]
			}
		}
	}
}

func main() {
	n := flag.Int("n", 512, "array side (a power of two)")
	reps := flag.Int("reps", 20, "transforms")
	check := flag.Bool("check", false, "compare with a serial 2-D FFT on rank 0")
	flag.Parse()
	if *n < 2 || *n&(*n-1) != 0 || *reps < 1 {
		fmt.Fprintln(os.Stderr, "fft: -n must be a power of two >= 2, -reps >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *reps, *check) })
}

func run(c *mpi.Comm, n, reps int, check bool) {
	if n%c.Size() != 0 {
		if c.Rank() == 0 {
			fmt.Fprintf(os.Stderr, "fft: %d ranks do not divide n = %d\n", c.Size(), n)
		}
		c.Abort(2)
	}
	plan := NewPlan(n)
	s := newSlab(c, n)

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for r := 0; r < reps; r++ {
		s.fill()
		s.fftRows(plan)
		s.transpose()
		s.fftRows(plan)
	}
	c.EndInterval(1)
	c.Barrier()
	elapsed := mpi.Wtime() - t0
	if c.Rank() == 0 {
		fmt.Printf("fft: %d x %d, %d transforms on %d ranks\nelapsed: %.6f s\n", n, n, reps, c.Size(), elapsed)
	}
	if !check {
		return
	}

	flat := make([]complex128, 0, s.nloc*n)
	for _, row := range s.rows {
		flat = append(flat, row...)
	}
	var all []complex128
	if c.Rank() == 0 {
		all = make([]complex128, n*n)
	}
	mpi.Gather(c, flat, all, 0)
	if c.Rank() != 0 {
		return
	}
	// serial: rows, then columns, of the same input
	x := make([][]complex128, n)
	for i := range x {
		x[i] = make([]complex128, n)
		for j := range x[i] {
			x[i][j] = value(i, j, n)
		}
		plan.Forward(x[i])
	}
	col := make([]complex128, n)
	worst, scale := 0.0, 0.0
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			col[i] = x[i][j]
		}
		plan.Forward(col)
		// the distributed result is transposed: its row j is column j
		for i := 0; i < n; i++ {
			worst = max(worst, cmplx.Abs(col[i]-all[j*n+i]))
			scale = max(scale, cmplx.Abs(col[i]))
		}
	}
	// and one point against the definition of the DFT
	var d complex128
	k1, k2 := 1%n, 3%n
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d += value(i, j, n) * cmplx.Rect(1, -2*math.Pi*float64(k1*i+k2*j)/float64(n))
		}
	}
	defErr := cmplx.Abs(d - all[k2*n+k1])
	if worst > 1e-9*scale || defErr > 1e-6*scale {
		fmt.Fprintf(os.Stderr, "fft: check failed: largest difference %.2e of %.2e, DFT point off by %.2e\n", worst, scale, defErr)
		c.Abort(1)
	}
	fmt.Printf("fft: check passed (largest difference %.1e of %.1e, DFT point %.1e)\n", worst, scale, defErr)
}
