// Command blocks2d is a 2-D Jacobi iteration on a px x py grid of ranks:
// each rank's block is a struct with its sizes and arrays, indexed by a
// method that only computes (b.at(i, j)), its columns packed into buffers
// for the east and west neighbours.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

type block struct {
	nx, ny int // interior points
	u, v   []float64
	sendW  []float64
	recvW  []float64
	sendE  []float64
	recvE  []float64
}

func (b *block) at(i, j int) int { return (i+1)*(b.ny+2) + j + 1 }

func (b *block) packCol(j int, dst []float64) {
	for i := 0; i < b.nx; i++ {
		dst[i] = b.u[b.at(i, j)]
	}
}

func (b *block) unpackCol(j int, src []float64) {
	for i := 0; i < b.nx; i++ {
		b.u[b.at(i, j)] = src[i]
	}
}

func (b *block) sweep() float64 {
	d := 0.0
	for i := 0; i < b.nx; i++ {
		for j := 0; j < b.ny; j++ {
			k := b.at(i, j)
			nv := 0.25 * (b.u[k-1] + b.u[k+1] + b.u[k-(b.ny+2)] + b.u[k+(b.ny+2)])
			d = math.Max(d, math.Abs(nv-b.u[k]))
			b.v[k] = nv
		}
	}
	b.u, b.v = b.v, b.u
	return d
}

func main() {
	n := flag.Int("n", 1024, "global grid size")
	steps := flag.Int("steps", 20, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		px := 1
		for px*px < size {
			px++
		}
		for size%px != 0 {
			px--
		}
		py := size / px
		ri, rj := rank/py, rank%py
		b := &block{nx: *n / px, ny: *n / py}
		b.u = make([]float64, (b.nx+2)*(b.ny+2))
		b.v = make([]float64, len(b.u))
		b.sendW, b.recvW = make([]float64, b.nx), make([]float64, b.nx)
		b.sendE, b.recvE = make([]float64, b.nx), make([]float64, b.nx)
		north, south := -1, -1
		if ri > 0 {
			north = rank - py
		}
		if ri < px-1 {
			south = rank + py
		}
		west, east := -1, -1
		if rj > 0 {
			west = rank - 1
		}
		if rj < py-1 {
			east = rank + 1
		}
		row := b.ny + 2
		local, global := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for s := 0; s < *steps; s++ {
			if north >= 0 {
				mpi.Sendrecv(c, b.u[row+1:2*row-1], north, 0, b.u[1:row-1], north, 1)
			}
			if south >= 0 {
				mpi.Sendrecv(c, b.u[b.nx*row+1:(b.nx+1)*row-1], south, 1, b.u[(b.nx+1)*row+1:(b.nx+2)*row-1], south, 0)
			}
			if west >= 0 {
				b.packCol(0, b.sendW)
				mpi.Sendrecv(c, b.sendW, west, 2, b.recvW, west, 3)
				b.unpackCol(-1, b.recvW)
			}
			if east >= 0 {
				b.packCol(b.ny-1, b.sendE)
				mpi.Sendrecv(c, b.sendE, east, 3, b.recvE, east, 2)
				b.unpackCol(b.ny, b.recvE)
			}
			local[0] = b.sweep()
			mpi.Allreduce(c, local, global, mpi.Max)
		}
		c.EndInterval(1)
		if rank == 0 {
			fmt.Println("px", px, "py", py, "d", global[0])
		}
	})
}
