// Command fft2d computes 2-D complex FFTs of an n x n grid (n a power of
// two) with the rows block-distributed over the ranks. A 2-D transform is a
// 1-D radix-2 FFT of every local row, a global transpose (pack P blocks
// into a send buffer, mpi.Alltoall, unpack), FFTs of the rows again, and a
// transpose back. Each of the -reps repetitions does a forward then an
// inverse transform, so the data returns to the input.
//
//	go run . -np 4 -n 512 -reps 12
//
// With -check (default), every rank compares its rows with the input after
// the repetitions and rank 0 reports the largest error (tolerance 1e-9).
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

type config struct {
	n, reps int
	check   bool
}

// grid is one rank's block of rows of the n x n array, with the buffers of
// the transpose.
type grid struct {
	n, rows, row0, size int
	data                []complex128 // rows x n
	send, recv          []complex128 // rows x n each
	twiddle             []complex128 // n/2 forward twiddles
}

func newGrid(n, size, rank int) *grid {
	rows := n / size
	g := &grid{n: n, rows: rows, row0: rank * rows, size: size}
	g.data = make([]complex128, rows*n)
	g.send = make([]complex128, rows*n)
	g.recv = make([]complex128, rows*n)
	g.twiddle = make([]complex128, n/2)
	for k := range g.twiddle {
		g.twiddle[k] = cmplx.Exp(complex(0, -2*math.Pi*float64(k)/float64(n)))
	}
	g.fill()
	return g
}

// value is the deterministic input at (i, j).
func value(n, i, j int) complex128 {
	x := math.Sin(float64(3*i+1)*0.37+float64(j)*0.11) + 0.25*math.Cos(float64(i*j%n)*0.05)
	y := math.Cos(float64(i)*0.23 - float64(5*j+2)*0.07)
	return complex(x, y)
}

func (g *grid) fill() {
	for r := 0; r < g.rows; r++ {
		for j := 0; j < g.n; j++ {
			g.data[r*g.n+j] = value(g.n, g.row0+r, j)
		}
	}
}

// fft1d transforms a in place (length a power of two); inverse uses the
// conjugate twiddles and scales by 1/len(a).
func fft1d(a []complex128, twiddle []complex128, inverse bool) {
	n := len(a)
	logn := bits.TrailingZeros(uint(n))
	for i := 0; i < n; i++ {
		j := int(bits.Reverse(uint(i)) >> (bits.UintSize - logn))
		if i < j {
			a[i], a[j] = a[j], a[i]
		}
	}
	for half := 1; half < n; half *= 2 {
		step := n / (2 * half)
		for start := 0; start < n; start += 2 * half {
			for k := 0; k < half; k++ {
				w := twiddle[k*step]
				if inverse {
					w = cmplx.Conj(w)
				}
				u, v := a[start+k], a[start+k+half]*w
				a[start+k] = u + v
				a[start+k+half] = u - v
			}
		}
	}
	if inverse {
		s := complex(1/float64(n), 0)
		for i := range a {
			a[i] *= s
		}
	}
}

// rowFFTs transforms every local row.
func (g *grid) rowFFTs(inverse bool) {
	for r := 0; r < g.rows; r++ {
		fft1d(g.data[r*g.n:(r+1)*g.n], g.twiddle, inverse)
	}
}

// transpose replaces the distributed array by its transpose: block q of the
// send buffer holds columns [q*rows, (q+1)*rows) of the local rows,
// transposed, so that after the Alltoall block p holds this rank's new rows
// from rank p's old ones.
func (g *grid) transpose(c *mpi.Comm) {
	b := g.rows
	blk := b * b
	for q := 0; q < g.size; q++ {
		for r := 0; r < b; r++ {
			for j := 0; j < b; j++ {
				g.send[q*blk+j*b+r] = g.data[r*g.n+q*b+j]
			}
		}
	}
	mpi.Alltoall(c, g.send, g.recv)
	for p := 0; p < g.size; p++ {
		for r := 0; r < b; r++ {
			copy(g.data[r*g.n+p*b:r*g.n+(p+1)*b], g.recv[p*blk+r*b:p*blk+(r+1)*b])
		}
	}
}

// fft2d does one 2-D transform; the result is left transposed back, in the
// original layout.
func (g *grid) fft2d(c *mpi.Comm, inverse bool) {
	g.rowFFTs(inverse)
	g.transpose(c)
	g.rowFFTs(inverse)
	g.transpose(c)
}

// maxError is the largest distance of the local rows from the input.
func (g *grid) maxError() float64 {
	e := 0.0
	for r := 0; r < g.rows; r++ {
		for j := 0; j < g.n; j++ {
			e = math.Max(e, cmplx.Abs(g.data[r*g.n+j]-value(g.n, g.row0+r, j)))
		}
	}
	return e
}

func run(c *mpi.Comm, cfg config) {
	rank, size := c.Rank(), c.Size()
	if cfg.n%size != 0 {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "fft2d: n = %d is not divisible by %d ranks\n", cfg.n, size)
		}
		c.Abort(2)
	}
	g := newGrid(cfg.n, size, rank)

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for rep := 0; rep < cfg.reps; rep++ {
		g.fft2d(c, false)
		g.fft2d(c, true)
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if rank == 0 {
		fmt.Printf("fft2d: n=%d reps=%d ranks=%d\nelapsed: %.6f s\n", cfg.n, cfg.reps, size, elapsed)
	}
	if !cfg.check {
		return
	}
	local, global := []float64{g.maxError()}, []float64{0}
	mpi.Reduce(c, local, global, mpi.Max, 0)
	if rank == 0 {
		if global[0] > 1e-9 {
			fmt.Fprintf(os.Stderr, "fft2d: check FAILED: max error %.3g\n", global[0])
			c.Abort(1)
		}
		fmt.Printf("check: OK (max error after forward+inverse %.3g)\n", global[0])
	}
}

func main() {
	var cfg config
	flag.IntVar(&cfg.n, "n", 512, "grid size (a power of two)")
	flag.IntVar(&cfg.reps, "reps", 12, "forward+inverse repetitions")
	flag.BoolVar(&cfg.check, "check", true, "check that forward+inverse returns the input")
	flag.Parse()
	if cfg.n < 2 || cfg.n&(cfg.n-1) != 0 {
		fmt.Fprintln(os.Stderr, "fft2d: n must be a power of two >= 2")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, cfg) })
}
