// Command pipeline2 is pipeline with one line changed (fault 3 of
// NOTES-F.md: the ring's closure captures a copy of o.size, not o).
//
// pipeline pushes a stream of blocks through a chain of -stages
// processing stages spread over the ranks (rank r runs stages
// r*S/P .. (r+1)*S/P-1; with more ranks than stages some only relay).
// Rank 0 generates the blocks, the last rank reduces them. Blocks have a
// cost from a work-list (rank 0 draws it and broadcasts it): a stage
// applies its kernel cost[k] times to block k. Every rank overlaps: it
// posts the Irecv of the next block before computing the current one and
// sends with Isend, keeping a ring of buffers whose sends it waits for
// before reusing them. With -check the last rank recomputes serially.
//
//	go run . -np 4 -check
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type options struct {
	blocks, size, stages, maxCost, depth int
	seed                                 uint64
	check                                bool
}

// ring is a fixed set of slots used round robin.
type ring[T any] struct{ slots []T }

func newRing[T any](n int, mk func() T) *ring[T] {
	r := &ring[T]{slots: make([]T, n)}
	for i := range r.slots {
		r.slots[i] = mk()
	}
	return r
}

func (r *ring[T]) at(k int) T { return r.slots[k%len(r.slots)] }

// stage is one step of the chain.
type stage struct {
	id    int
	shift float64
}

// apply runs the stage's kernel reps times over the block.
func (s stage) apply(b []float64, reps int) {
	for range reps {
		for i, x := range b {
			b[i] = 0.5*x + 0.25*math.Sqrt(x*x+s.shift)
		}
	}
}

func workList(o options) []int {
	cost := make([]int, o.blocks)
	x := o.seed*2862933555777941757 + 3037000493
	for k := range cost {
		x = x*6364136223846793005 + 1442695040888963407
		cost[k] = 1 + int((x>>33)%uint64(o.maxCost))
	}
	return cost
}

// generate fills block k.
func generate(b []float64, k int, seed uint64) {
	x := seed ^ uint64(k)*0x9E3779B97F4A7C15
	for i := range b {
		x = x*6364136223846793005 + 1442695040888963407
		b[i] = float64(x>>40) / (1 << 24)
	}
}

func total(b []float64) float64 {
	s := 0.0
	for _, x := range b {
		s += x
	}
	return s
}

func main() {
	var o options
	flag.IntVar(&o.blocks, "blocks", 600, "blocks in the stream")
	flag.IntVar(&o.size, "bs", 8192, "float64s per block")
	flag.IntVar(&o.stages, "stages", 8, "processing stages")
	flag.IntVar(&o.maxCost, "maxcost", 4, "a block's cost is 1..maxcost kernel passes")
	flag.IntVar(&o.depth, "depth", 3, "buffers in flight per rank")
	flag.Uint64Var(&o.seed, "seed", 11, "seed of the data and the work-list")
	flag.BoolVar(&o.check, "check", false, "recompute serially on the last rank")
	flag.Parse()
	if o.blocks < 1 || o.size < 1 || o.stages < 1 || o.maxCost < 1 || o.depth < 2 {
		fmt.Fprintln(os.Stderr, "pipeline: need -blocks, -bs, -stages, -maxcost >= 1 and -depth >= 2")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, o) })
}

func run(c *mpi.Comm, o options) {
	rank, size := c.Rank(), c.Size()
	cost := make([]int, o.blocks)
	if rank == 0 {
		copy(cost, workList(o))
	}
	mpi.Bcast(c, cost, 0)

	var mine []stage
	for s := rank * o.stages / size; s < (rank+1)*o.stages/size; s++ {
		mine = append(mine, stage{id: s, shift: 1 + float64(s)})
	}
	first, last := rank == 0, rank == size-1
	bs := o.size // work-around of fault 3 (NOTES-F.md): the closure must not capture o
	bufs := newRing(o.depth, func() []float64 { return make([]float64, bs) })
	sends := make([]*mpi.Request, o.depth)
	var recvs []*mpi.Request
	if !first {
		recvs = make([]*mpi.Request, o.depth)
		recvs[0] = mpi.Irecv(c, bufs.at(0), rank-1, 0)
	}
	sum := 0.0

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for k := range o.blocks {
		b := bufs.at(k)
		if first {
			if r := sends[k%o.depth]; r != nil {
				r.Wait()
			}
			generate(b, k, o.seed)
		} else {
			recvs[k%o.depth].Wait()
			if next := k + 1; next < o.blocks {
				if r := sends[next%o.depth]; r != nil {
					r.Wait() // the slot's last send must be done
					sends[next%o.depth] = nil
				}
				recvs[next%o.depth] = mpi.Irecv(c, bufs.at(next), rank-1, 0)
			}
		}
		for _, s := range mine {
			s.apply(b, cost[k])
		}
		if last {
			sum += total(b)
		} else {
			sends[k%o.depth] = mpi.Isend(c, b, rank+1, 0)
		}
	}
	var pending []*mpi.Request
	for _, r := range sends {
		if r != nil {
			pending = append(pending, r)
		}
	}
	mpi.Waitall(pending...)
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0
	if !last {
		return
	}
	fmt.Printf("pipeline: %d blocks of %d, %d stages on %d ranks, sum %.10e\n", o.blocks, o.size, o.stages, size, sum)
	fmt.Printf("elapsed: %.6f s\n", elapsed)
	if !o.check {
		return
	}
	want := 0.0
	b := make([]float64, o.size)
	for k, w := range workList(o) {
		generate(b, k, o.seed)
		for s := range o.stages {
			stage{id: s, shift: 1 + float64(s)}.apply(b, w)
		}
		want += total(b)
	}
	if want != sum {
		fmt.Fprintf(os.Stderr, "pipeline: check failed: sum %.17g, serial %.17g\n", sum, want)
		os.Exit(1)
	}
	fmt.Println("pipeline: check passed")
}
