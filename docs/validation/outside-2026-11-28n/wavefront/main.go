// Command wavefront runs a pipelined 2-D wavefront (Gauss-Seidel style)
// sweep over an nr x nc grid whose columns are block-distributed. Cell
// (i, j) depends on (i-1, j) and (i, j-1), so each rank works down its block
// chunk by chunk of rows: it receives the chunk's boundary column from
// rank-1, updates the chunk, and sends its own last column of the chunk to
// rank+1. Several sweeps; the residual (sum of changes of the last sweep) is
// combined with Allreduce. -check compares with a serial sweep on rank 0.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type params struct {
	nr, nc, chunk, sweeps int
	check                 bool
}

func main() {
	nr := flag.Int("nr", 1500, "grid rows")
	nc := flag.Int("nc", 1500, "grid columns (distributed)")
	chunk := flag.Int("chunk", 50, "rows per pipeline chunk")
	sweeps := flag.Int("sweeps", 10, "number of sweeps")
	check := flag.Bool("check", true, "compare with a serial sweep on rank 0")
	flag.Parse()
	p := params{*nr, *nc, *chunk, *sweeps, *check}
	if p.nr < 2 || p.nc < 2 || p.chunk < 1 || p.sweeps < 1 {
		fmt.Fprintln(os.Stderr, "wavefront: bad arguments")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

// source is the fixed right-hand side of cell (i, j).
func source(i, j int) float64 {
	return 1e-3 * float64((i*31+j*17)%13)
}

// update sweeps rows [r0, r1) of a block of width w (local columns 1..w;
// local column 0 holds the left boundary) and returns the sum of |change|.
func update(u []float64, w, r0, r1, j0 int) float64 {
	stride := w + 1
	res := 0.0
	for i := r0; i < r1; i++ {
		row := u[i*stride : (i+1)*stride]
		up := u[(i-1)*stride : i*stride]
		for j := 1; j <= w; j++ {
			nv := (up[j]+row[j-1]+row[j])/3 + source(i, j0+j-1)
			res += math.Abs(nv - row[j])
			row[j] = nv
		}
	}
	return res
}

func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	// interior columns 1..nc-1 distributed; global column 0 and row 0 fixed.
	m := p.nc - 1
	if m < size {
		if rank == 0 {
			fmt.Fprintln(os.Stderr, "wavefront: fewer columns than ranks")
		}
		c.Abort(2)
	}
	lo, hi := rank*m/size, (rank+1)*m/size
	w := hi - lo
	stride := w + 1
	u := make([]float64, p.nr*stride)
	// boundary: row 0 is 1, global column 0 is 0.5
	for j := 0; j <= w; j++ {
		u[j] = 1
	}
	if rank == 0 {
		for i := 1; i < p.nr; i++ {
			u[i*stride] = 0.5
		}
	}
	buf := make([]float64, p.chunk)
	local, global := []float64{0}, []float64{0}

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for s := 0; s < p.sweeps; s++ {
		res := 0.0
		for r0 := 1; r0 < p.nr; r0 += p.chunk {
			r1 := min(r0+p.chunk, p.nr)
			k := r1 - r0
			if rank > 0 {
				mpi.Recv(c, buf[:k], rank-1, s)
				for i := 0; i < k; i++ {
					u[(r0+i)*stride] = buf[i]
				}
			}
			res += update(u, w, r0, r1, lo+1)
			if rank < size-1 {
				for i := 0; i < k; i++ {
					buf[i] = u[(r0+i)*stride+w]
				}
				mpi.Send(c, buf[:k], rank+1, s)
			}
		}
		local[0] = res
		mpi.Allreduce(c, local, global, mpi.Sum)
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	// gather the field on rank 0 for the check
	var field []float64
	if p.check {
		counts := make([]int, size)
		displs := make([]int, size)
		for r := range size {
			a, b := r*m/size, (r+1)*m/size
			counts[r], displs[r] = (b-a)*p.nr, a*p.nr
		}
		mine := make([]float64, w*p.nr) // column-major
		for j := 0; j < w; j++ {
			for i := 0; i < p.nr; i++ {
				mine[j*p.nr+i] = u[i*stride+j+1]
			}
		}
		if rank == 0 {
			field = make([]float64, m*p.nr)
		}
		mpi.Gatherv(c, mine, field, counts, displs, 0)
	}
	if rank != 0 {
		return
	}
	fmt.Printf("wavefront: nr=%d nc=%d chunk=%d sweeps=%d ranks=%d residual=%.6e\n", p.nr, p.nc, p.chunk, p.sweeps, size, global[0])
	if p.check {
		want, wres := serial(p)
		maxd := 0.0
		for j := 0; j < m; j++ {
			for i := 0; i < p.nr; i++ {
				d := math.Abs(field[j*p.nr+i] - want[i*p.nc+j+1])
				maxd = math.Max(maxd, d)
			}
		}
		rd := math.Abs(wres-global[0]) / math.Max(1e-300, math.Abs(wres))
		if maxd > 1e-12 || rd > 1e-9 {
			fmt.Fprintf(os.Stderr, "check: FAILED max diff %.3g residual rel diff %.3g\n", maxd, rd)
			c.Abort(1)
		}
		fmt.Printf("check: ok (max diff %.3g)\n", maxd)
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

// serial runs the same sweeps on the whole grid and returns it (row-major,
// nc columns) with the last sweep's residual.
func serial(p params) ([]float64, float64) {
	w := p.nc - 1
	u := make([]float64, p.nr*p.nc)
	for j := 0; j < p.nc; j++ {
		u[j] = 1
	}
	for i := 1; i < p.nr; i++ {
		u[i*p.nc] = 0.5
	}
	res := 0.0
	for s := 0; s < p.sweeps; s++ {
		res = update(u, w, 1, p.nr, 1)
	}
	return u, res
}
