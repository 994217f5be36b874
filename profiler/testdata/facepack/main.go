// Command facepack packs a block's face into a buffer and exchanges it
// with the neighbouring rank, as a 3-D halo exchange does: the pack loops
// call a small method per face point. With one rank there is no
// neighbour, so the packing never runs; with two it runs every step.
package main

import (
	"flag"

	"github.com/parpredict/parpredict/mpi"
)

type block struct {
	n    int
	u    []float64
	face []float64
}

// at is the index of point (x, y) of the block's last plane.
func (b *block) at(x, y int) int { return (b.n-1)*b.n*b.n + y*b.n + x }

func (b *block) pack() {
	for y := 0; y < b.n; y++ {
		for x := 0; x < b.n; x++ {
			b.face[y*b.n+x] = b.u[b.at(x, y)]
		}
	}
}

func (b *block) smooth() {
	for i := 1; i < len(b.u)-1; i++ {
		b.u[i] = 0.5*b.u[i] + 0.25*(b.u[i-1]+b.u[i+1])
	}
}

func main() {
	n := flag.Int("n", 48, "block edge")
	steps := flag.Int("steps", 40, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		b := &block{n: *n, u: make([]float64, *n**n**n), face: make([]float64, *n**n)}
		in := make([]float64, *n**n)
		peer := c.Rank() ^ 1
		for s := 0; s < *steps; s++ {
			b.smooth()
			if peer < c.Size() {
				b.pack()
				mpi.Sendrecv(c, b.face, peer, 0, in, peer, 0)
			}
		}
	})
}
