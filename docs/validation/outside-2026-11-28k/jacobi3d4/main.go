// Command jacobi3d4 is jacobi3d3 with the process grid ordered smallest
// first (px <= py <= pz): at P = 2 the blocks split z, the outermost loop,
// instead of x, the innermost.
//
// jacobi3d3 is jacobi3d2 with factor3's search keeping three
// integers (ba, bb, bc) and returning them as three results instead of a [3]int: a work-around of the tool's
// fault with a reduced nest whose result is an array.
//
// jacobi3d2 is jacobi3d with the loop bounds of update and
// interior copied to locals (nx, ny, nz := b.size[0], ...) instead of
// b.size[2] in the for conditions: a work-around of the tool's fault with
// an array element as a loop bound.
//
// jacobi3d solves the 3-D Laplace equation on an n x n x n grid of
// interior points by Jacobi iteration, on a px x py x pz process grid
// (px*py*pz = P, as near a cube as P allows). Each iteration every rank
// packs the faces of its block that touch a neighbour, exchanges them with
// Isend/Irecv (up to six) and Waitall, and updates its block. The largest
// change is combined with Allreduce only every -every iterations; the run
// stops when it is below -tol or after -iters iterations, so the iteration
// count depends on the data.
//
//	go run . -np 8 -n 48
//
// The boundary is 1 on the face z = -1 and 0 elsewhere. With -check
// (default) rank 0 gathers the field and compares it with a serial Jacobi
// run of the same number of iterations.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type config struct {
	n, iters, every int
	tol             float64
	check           bool
}

// factor3 splits p into three factors as close to each other as possible,
// smallest first.
func factor3(p int) (int, int, int) {
	ba, bb, bc := 1, 1, p
	bestScore := p
	for a := 1; a <= p; a++ {
		if p%a != 0 {
			continue
		}
		for b := 1; b <= p/a; b++ {
			if (p/a)%b != 0 {
				continue
			}
			c := p / a / b
			score := max(a, b, c) - min(a, b, c)
			if score < bestScore && a <= b && b <= c {
				ba, bb, bc, bestScore = a, b, c, score
			}
		}
	}
	return ba, bb, bc
}

// span is the range of interior indices of block r of p along n points.
func span(n, p, r int) (int, int) { return r * n / p, (r + 1) * n / p }

// block is one rank's part of the grid with a one-point halo.
type block struct {
	dims, coord [3]int
	lo, size    [3]int // global offset and extent of the interior
	sx, sy      int    // strides of y and z (x is contiguous)
	u, unew     []float64
	nb          [6]int // neighbour ranks of faces -x,+x,-y,+y,-z,+z; -1 none
	send, recv  [6][]float64
}

func rankOf(dims, c [3]int) int { return (c[0]*dims[1]+c[1])*dims[2] + c[2] }

func newBlock(n int, dims [3]int, rank int) *block {
	b := &block{dims: dims}
	b.coord = [3]int{rank / (dims[1] * dims[2]), rank / dims[2] % dims[1], rank % dims[2]}
	for d := range 3 {
		lo, hi := span(n, dims[d], b.coord[d])
		b.lo[d], b.size[d] = lo, hi-lo
	}
	b.sx = b.size[0] + 2
	b.sy = b.sx * (b.size[1] + 2)
	total := b.sy * (b.size[2] + 2)
	b.u, b.unew = make([]float64, total), make([]float64, total)
	for f := range 6 {
		d, dir := f/2, 2*(f%2)-1
		c := b.coord
		c[d] += dir
		b.nb[f] = -1
		if c[d] >= 0 && c[d] < dims[d] {
			b.nb[f] = rankOf(dims, c)
		}
		// the face spans the two other dimensions
		o1, o2 := (d+1)%3, (d+2)%3
		b.send[f] = make([]float64, b.size[o1]*b.size[o2])
		b.recv[f] = make([]float64, b.size[o1]*b.size[o2])
	}
	if b.coord[2] == 0 { // the hot face z = -1
		for y := 0; y < b.size[1]+2; y++ {
			for x := 0; x < b.sx; x++ {
				b.u[y*b.sx+x], b.unew[y*b.sx+x] = 1, 1
			}
		}
	}
	return b
}

func (b *block) at(x, y, z int) int { return z*b.sy + y*b.sx + x }

// facePoint is the index of point (i, j) of face f, at layer 'layer' along
// the face's normal (1 or size for the interior faces, 0 or size+1 for the
// halo).
func (b *block) facePoint(f, i, j, layer int) int {
	var p [3]int
	d := f / 2
	p[d] = layer
	p[(d+1)%3], p[(d+2)%3] = i+1, j+1
	return b.at(p[0], p[1], p[2])
}

// pack copies the interior layer next to face f into its send buffer.
func (b *block) pack(f int) {
	d := f / 2
	layer := 1
	if f%2 == 1 {
		layer = b.size[d]
	}
	n1, n2 := b.size[(d+1)%3], b.size[(d+2)%3]
	buf := b.send[f]
	for j := 0; j < n2; j++ {
		for i := 0; i < n1; i++ {
			buf[j*n1+i] = b.u[b.facePoint(f, i, j, layer)]
		}
	}
}

// unpack copies face f's received buffer into the halo.
func (b *block) unpack(f int) {
	d := f / 2
	layer := 0
	if f%2 == 1 {
		layer = b.size[d] + 1
	}
	n1, n2 := b.size[(d+1)%3], b.size[(d+2)%3]
	buf := b.recv[f]
	for j := 0; j < n2; j++ {
		for i := 0; i < n1; i++ {
			b.u[b.facePoint(f, i, j, layer)] = buf[j*n1+i]
		}
	}
}

// exchange swaps all faces that have a neighbour.
func (b *block) exchange(c *mpi.Comm) {
	var reqs []*mpi.Request
	for f := range 6 {
		if b.nb[f] < 0 {
			continue
		}
		reqs = append(reqs, mpi.Irecv(c, b.recv[f], b.nb[f], f^1))
	}
	for f := range 6 {
		if b.nb[f] < 0 {
			continue
		}
		b.pack(f)
		reqs = append(reqs, mpi.Isend(c, b.send[f], b.nb[f], f))
	}
	mpi.Waitall(reqs...)
	for f := range 6 {
		if b.nb[f] >= 0 {
			b.unpack(f)
		}
	}
}

// update does one Jacobi sweep and returns the largest change.
func (b *block) update() float64 {
	diff := 0.0
	nx, ny, nz := b.size[0], b.size[1], b.size[2]
	for z := 1; z <= nz; z++ {
		for y := 1; y <= ny; y++ {
			k := b.at(1, y, z)
			for x := 1; x <= nx; x++ {
				v := (b.u[k-1] + b.u[k+1] + b.u[k-b.sx] + b.u[k+b.sx] + b.u[k-b.sy] + b.u[k+b.sy]) / 6
				diff = math.Max(diff, math.Abs(v-b.u[k]))
				b.unew[k] = v
				k++
			}
		}
	}
	b.u, b.unew = b.unew, b.u
	return diff
}

// interior returns the block's interior points in x-fastest order.
func (b *block) interior() []float64 {
	nx, ny, nz := b.size[0], b.size[1], b.size[2]
	out := make([]float64, 0, nx*ny*nz)
	for z := 1; z <= nz; z++ {
		for y := 1; y <= ny; y++ {
			out = append(out, b.u[b.at(1, y, z):b.at(nx+1, y, z)]...)
		}
	}
	return out
}

func run(c *mpi.Comm, cfg config) {
	rank, size := c.Rank(), c.Size()
	px, py, pz := factor3(size)
	dims := [3]int{px, py, pz}
	if dims[0] > cfg.n {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "jacobi3d: -n %d too small for a %v process grid\n", cfg.n, dims)
		}
		c.Abort(2)
	}
	b := newBlock(cfg.n, dims, rank)
	local, global := []float64{0}, []float64{math.Inf(1)}

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	it := 0
	for it < cfg.iters {
		b.exchange(c)
		local[0] = b.update()
		it++
		if it%cfg.every == 0 {
			mpi.Allreduce(c, local, global, mpi.Max)
			if global[0] < cfg.tol {
				break
			}
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	if !cfg.check {
		if rank == 0 {
			fmt.Printf("jacobi3d: n=%d grid=%v iterations=%d change=%.3e\nelapsed: %.6f s\n", cfg.n, dims, it, global[0], elapsed)
		}
		return
	}
	// gather every block, then place it on rank 0
	counts, displs := make([]int, size), make([]int, size)
	off := 0
	for r := range size {
		o := newBlockShape(cfg.n, dims, r)
		counts[r], displs[r] = o[0]*o[1]*o[2], off
		off += counts[r]
	}
	var all []float64
	if rank == 0 {
		all = make([]float64, off)
	}
	mpi.Gatherv(c, b.interior(), all, counts, displs, 0)
	if rank != 0 {
		return
	}
	want := serial(cfg.n, it)
	worst := 0.0
	for r := range size {
		o := newBlock(cfg.n, dims, r) // only its shape is used
		k := displs[r]
		for z := range o.size[2] {
			for y := range o.size[1] {
				for x := range o.size[0] {
					g := ((o.lo[2]+z)*cfg.n+o.lo[1]+y)*cfg.n + o.lo[0] + x
					worst = math.Max(worst, math.Abs(all[k]-want[g]))
					k++
				}
			}
		}
	}
	fmt.Printf("jacobi3d: n=%d grid=%v iterations=%d change=%.3e max diff vs serial=%.2e\n", cfg.n, dims, it, global[0], worst)
	if cfg.check && worst > 1e-12 {
		fmt.Fprintln(os.Stderr, "jacobi3d: check failed")
		c.Abort(1)
	}
	fmt.Printf("check: field equals the serial run\nelapsed: %.6f s\n", elapsed)
}

// newBlockShape is the interior extent of rank r's block.
func newBlockShape(n int, dims [3]int, r int) [3]int {
	coord := [3]int{r / (dims[1] * dims[2]), r / dims[2] % dims[1], r % dims[2]}
	var s [3]int
	for d := range 3 {
		lo, hi := span(n, dims[d], coord[d])
		s[d] = hi - lo
	}
	return s
}

// serial is plain Jacobi on the whole grid for iters iterations.
func serial(n, iters int) []float64 {
	m := n + 2
	u, v := make([]float64, m*m*m), make([]float64, m*m*m)
	for i := 0; i < m*m; i++ {
		u[i], v[i] = 1, 1
	}
	for range iters {
		for z := 1; z <= n; z++ {
			for y := 1; y <= n; y++ {
				for x := 1; x <= n; x++ {
					k := (z*m+y)*m + x
					v[k] = (u[k-1] + u[k+1] + u[k-m] + u[k+m] + u[k-m*m] + u[k+m*m]) / 6
				}
			}
		}
		u, v = v, u
	}
	out := make([]float64, 0, n*n*n)
	for z := 1; z <= n; z++ {
		for y := 1; y <= n; y++ {
			out = append(out, u[(z*m+y)*m+1:(z*m+y)*m+n+1]...)
		}
	}
	return out
}

func main() {
	var cfg config
	flag.IntVar(&cfg.n, "n", 48, "interior points per dimension")
	flag.IntVar(&cfg.iters, "iters", 2000, "at most this many iterations")
	flag.IntVar(&cfg.every, "every", 10, "test the change every this many iterations")
	flag.Float64Var(&cfg.tol, "tol", 1e-4, "stop when the largest change is below tol")
	flag.BoolVar(&cfg.check, "check", true, "compare with a serial run on rank 0")
	flag.Parse()
	if cfg.n < 1 || cfg.every < 1 || cfg.iters < 1 {
		fmt.Fprintln(os.Stderr, "jacobi3d: need -n, -every, -iters >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, cfg) })
}
