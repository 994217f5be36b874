// Command transpose2d runs -steps steps on an n x n complex array whose
// rows are split in equal blocks over the ranks. Each step transforms
// every local row with a naive discrete Fourier transform (n^2 work per
// row, a table of twiddle factors), then transposes the whole array:
// every rank packs one nb x nb block per destination, one Alltoall moves
// them, and each rank unpacks the blocks it got transposed. Two steps
// are a 2-D DFT. With -check rank 0 gathers the array and compares it
// with the same steps done serially.
//
//	go run . -np 4 -check
package main

import (
	"flag"
	"fmt"
	"math"
	"math/cmplx"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type options struct {
	n, steps int
	check    bool
}

func main() {
	var o options
	flag.IntVar(&o.n, "n", 256, "rows and columns (a multiple of the number of ranks)")
	flag.IntVar(&o.steps, "steps", 6, "row transforms, each followed by a transpose")
	flag.BoolVar(&o.check, "check", false, "compare with a serial run on rank 0")
	flag.Parse()
	if o.n < 1 || o.steps < 0 {
		fmt.Fprintln(os.Stderr, "transpose2d: -n must be at least 1 and -steps at least 0")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, o) })
}

// block is a band of rows of the n x n array, row-major.
type block struct {
	n, rows, first int
	a              []complex128
}

func newBlock(n, first, rows int) *block {
	b := &block{n: n, rows: rows, first: first, a: make([]complex128, rows*n)}
	for i := range rows {
		for j := range n {
			b.a[i*n+j] = initial(first+i, j)
		}
	}
	return b
}

// initial is the array's starting value at (i, j).
func initial(i, j int) complex128 {
	return complex(math.Sin(float64(i*7+j)*0.01), math.Cos(float64(i-3*j)*0.02))
}

// dft transforms rows in place with a naive DFT: out[k] = sum_j x[j] w^(jk).
type dft struct {
	n   int
	tw  []complex128 // tw[m] = exp(-2 pi i m / n)
	out []complex128
}

func newDFT(n int) *dft {
	d := &dft{n: n, tw: make([]complex128, n), out: make([]complex128, n)}
	for m := range n {
		d.tw[m] = cmplx.Rect(1, -2*math.Pi*float64(m)/float64(n))
	}
	return d
}

func (d *dft) row(x []complex128) {
	n := d.n
	for k := range n {
		var s complex128
		m := 0
		for j := range n {
			s += x[j] * d.tw[m]
			m += k
			if m >= n {
				m -= n
			}
		}
		d.out[k] = s
	}
	copy(x, d.out)
}

func (d *dft) rows(b *block) {
	for i := range b.rows {
		d.row(b.a[i*b.n : (i+1)*b.n])
	}
}

// transposer holds the buffers of the distributed transpose.
type transposer struct {
	c          *mpi.Comm
	size, nb   int
	send, recv []complex128
}

func newTransposer(c *mpi.Comm, b *block) *transposer {
	return &transposer{c: c, size: c.Size(), nb: b.rows,
		send: make([]complex128, len(b.a)), recv: make([]complex128, len(b.a))}
}

// pack puts the columns of destination r in send block r, row by row.
func (t *transposer) pack(b *block) {
	nb := t.nb
	for r := range t.size {
		dst := t.send[r*nb*nb : (r+1)*nb*nb]
		for i := range nb {
			copy(dst[i*nb:(i+1)*nb], b.a[i*b.n+r*nb:i*b.n+(r+1)*nb])
		}
	}
}

// unpack writes block r, transposed, into columns r*nb.. of b.
func (t *transposer) unpack(b *block) {
	nb := t.nb
	for r := range t.size {
		src := t.recv[r*nb*nb : (r+1)*nb*nb]
		for i := range nb {
			for j := range nb {
				b.a[j*b.n+r*nb+i] = src[i*nb+j]
			}
		}
	}
}

func (t *transposer) transpose(b *block) {
	t.pack(b)
	mpi.Alltoall(t.c, t.send, t.recv)
	t.unpack(b)
}

func run(c *mpi.Comm, o options) {
	rank, size := c.Rank(), c.Size()
	if o.n%size != 0 {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "transpose2d: -n %d is not a multiple of %d ranks\n", o.n, size)
		}
		c.Abort(2)
	}
	nb := o.n / size
	b := newBlock(o.n, rank*nb, nb)
	d := newDFT(o.n)
	t := newTransposer(c, b)

	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for range o.steps {
		d.rows(b)
		t.transpose(b)
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if !o.check {
		if rank == 0 {
			fmt.Printf("transpose2d: %d x %d, %d steps on %d ranks in %.3f s\n", o.n, o.n, o.steps, size, elapsed)
		}
		return
	}
	var all []complex128
	if rank == 0 {
		all = make([]complex128, o.n*o.n)
	}
	mpi.Gather(c, b.a, all, 0)
	if rank != 0 {
		return
	}
	s := newBlock(o.n, 0, o.n)
	for range o.steps {
		d.rows(s)
		s.transposeSerial()
	}
	worst := 0.0
	for i, v := range s.a {
		worst = max(worst, cmplx.Abs(v-all[i]))
	}
	if worst != 0 {
		fmt.Fprintf(os.Stderr, "transpose2d: check failed: largest difference %.3e\n", worst)
		c.Abort(1)
	}
	fmt.Printf("transpose2d: %d x %d, %d steps on %d ranks in %.3f s, check passed\n", o.n, o.n, o.steps, size, elapsed)
}

// transposeSerial transposes a whole (rows == n) block in place.
func (b *block) transposeSerial() {
	for i := range b.n {
		for j := i + 1; j < b.n; j++ {
			b.a[i*b.n+j], b.a[j*b.n+i] = b.a[j*b.n+i], b.a[i*b.n+j]
		}
	}
}
