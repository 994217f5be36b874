// Command bfs runs a level-synchronous breadth-first search on a random
// directed graph from -roots sources. The vertices are block-distributed;
// each rank generates the out-edges of its own vertices (a deterministic
// hash of the vertex, so every rank count makes the same graph) into CSR
// arrays. Each level a rank scans its frontier, settles the neighbours it
// owns and buckets the others by owner; Alltoall of the counts and
// Alltoallv of the vertices deliver them, the receivers settle the new
// ones, and an Allreduce of the next frontier's size decides whether to go
// on. With -check rank 0 gathers the distances and compares them with a
// serial BFS.
//
//	go run . -np 4 -check
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type params struct {
	n, deg, roots int
	seed          uint64
	check         bool
}

func mix(x uint64) uint64 {
	x *= 0x9E3779B97F4A7C15
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 29
	return x
}

// edges calls f for every out-neighbour of v: between 1 and 2*deg-1 of them.
func (p params) edges(v int, f func(w int)) {
	h := mix(p.seed ^ uint64(v)<<1)
	d := 1 + int(h%uint64(2*p.deg-1))
	for j := range d {
		f(int(mix(h+uint64(j)+1) % uint64(p.n)))
	}
}

// partition is the block distribution of n vertices over size ranks.
type partition struct{ n, size, b int }

func newPartition(n, size int) partition { return partition{n, size, (n + size - 1) / size} }

func (pt partition) owner(v int) int { return v / pt.b }
func (pt partition) lo(r int) int    { return min(r*pt.b, pt.n) }
func (pt partition) hi(r int) int    { return min((r+1)*pt.b, pt.n) }

// csr is the adjacency of a rank's vertices.
type csr struct {
	first  int
	rowptr []int
	col    []int32
}

func buildCSR(p params, lo, hi int) *csr {
	g := &csr{first: lo, rowptr: make([]int, 1, hi-lo+1)}
	for v := lo; v < hi; v++ {
		p.edges(v, func(w int) { g.col = append(g.col, int32(w)) })
		g.rowptr = append(g.rowptr, len(g.col))
	}
	return g
}

func (g *csr) neighbours(v int) []int32 {
	i := v - g.first
	return g.col[g.rowptr[i]:g.rowptr[i+1]]
}

// searcher is one rank's BFS state.
type searcher struct {
	c              *mpi.Comm
	pt             partition
	g              *csr
	rank, size     int
	dist           []int32
	frontier, next []int32
	out            [][]int32
	sendbuf, recv  []int32
	scount, rcount []int
	sdispl, rdispl []int
}

func newSearcher(c *mpi.Comm, p params) *searcher {
	s := &searcher{c: c, rank: c.Rank(), size: c.Size()}
	s.pt = newPartition(p.n, s.size)
	s.g = buildCSR(p, s.pt.lo(s.rank), s.pt.hi(s.rank))
	s.dist = make([]int32, s.pt.hi(s.rank)-s.pt.lo(s.rank))
	s.out = make([][]int32, s.size)
	s.scount, s.rcount = make([]int, s.size), make([]int, s.size)
	s.sdispl, s.rdispl = make([]int, s.size), make([]int, s.size)
	return s
}

// visit settles local vertex v at level d if it is new.
func (s *searcher) visit(v int32, d int32) {
	i := int(v) - s.g.first
	if s.dist[i] < 0 {
		s.dist[i] = d
		s.next = append(s.next, v)
	}
}

// search runs one BFS from root and returns the number of levels.
func (s *searcher) search(root int) int {
	for i := range s.dist {
		s.dist[i] = -1
	}
	s.frontier = s.frontier[:0]
	if s.pt.owner(root) == s.rank {
		s.dist[root-s.g.first] = 0
		s.frontier = append(s.frontier, int32(root))
	}
	local, global := []int64{0}, []int64{1}
	level := int32(0)
	for global[0] > 0 {
		level++
		s.next = s.next[:0]
		for r := range s.out {
			s.out[r] = s.out[r][:0]
		}
		for _, u := range s.frontier {
			for _, w := range s.g.neighbours(int(u)) {
				if o := s.pt.owner(int(w)); o == s.rank {
					// s.visit inlined: the call is fault 2 of predict (NOTES-H.md)
					if i := int(w) - s.g.first; s.dist[i] < 0 {
						s.dist[i] = level
						s.next = append(s.next, w)
					}
				} else {
					s.out[o] = append(s.out[o], w)
				}
			}
		}
		s.exchange()
		for _, w := range s.recv {
			if i := int(w) - s.g.first; s.dist[i] < 0 {
				s.dist[i] = level
				s.next = append(s.next, w)
			}
		}
		s.frontier, s.next = s.next, s.frontier
		local[0] = int64(len(s.frontier))
		mpi.Allreduce(s.c, local, global, mpi.Sum)
	}
	return int(level) - 1
}

// exchange sends s.out[r] to rank r and leaves what arrived in s.recv.
func (s *searcher) exchange() {
	total := 0
	for r, b := range s.out {
		s.scount[r] = len(b)
		s.sdispl[r] = total
		total += len(b)
	}
	s.sendbuf = s.sendbuf[:0]
	for _, b := range s.out {
		s.sendbuf = append(s.sendbuf, b...)
	}
	mpi.Alltoall(s.c, s.scount, s.rcount)
	rtotal := 0
	for r, k := range s.rcount {
		s.rdispl[r] = rtotal
		rtotal += k
	}
	if cap(s.recv) < rtotal {
		s.recv = make([]int32, rtotal)
	}
	s.recv = s.recv[:rtotal]
	mpi.Alltoallv(s.c, s.sendbuf, s.scount, s.sdispl, s.recv, s.rcount, s.rdispl)
}

func main() {
	var p params
	flag.IntVar(&p.n, "n", 400000, "vertices")
	flag.IntVar(&p.deg, "deg", 8, "mean out-degree")
	flag.IntVar(&p.roots, "roots", 4, "searches, from roots spread over the vertices")
	flag.Uint64Var(&p.seed, "seed", 1, "graph seed")
	flag.BoolVar(&p.check, "check", false, "compare the distances with a serial BFS on rank 0")
	flag.Parse()
	if p.n < 1 || p.deg < 1 || p.roots < 1 {
		fmt.Fprintln(os.Stderr, "bfs: need -n, -deg, -roots >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

func root(p params, k int) int { return int(mix(uint64(k)+12345) % uint64(p.n)) }

func run(c *mpi.Comm, p params) {
	s := newSearcher(c, p)
	levels := make([]int, p.roots)
	reached := make([]int64, p.roots)

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for k := range p.roots {
		levels[k] = s.search(root(p, k))
		var cnt int64
		for _, d := range s.dist {
			if d >= 0 {
				cnt++
			}
		}
		local, sum := []int64{cnt}, []int64{0}
		mpi.Reduce(c, local, sum, mpi.Sum, 0)
		reached[k] = sum[0]
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	// the last search's distances, for -check
	var all []int32
	var counts, displs []int
	if c.Rank() == 0 {
		all = make([]int32, p.n)
		counts, displs = make([]int, s.size), make([]int, s.size)
		for r := range s.size {
			counts[r], displs[r] = s.pt.hi(r)-s.pt.lo(r), s.pt.lo(r)
		}
	}
	mpi.Gatherv(c, s.dist, all, counts, displs, 0)
	if c.Rank() != 0 {
		return
	}
	fmt.Printf("bfs: n=%d deg=%d ranks=%d edges(rank 0)=%d levels=%v reached=%v\n",
		p.n, p.deg, s.size, len(s.g.col), levels, reached)
	if p.check {
		want := serialBFS(p, root(p, p.roots-1))
		for v := range want {
			if want[v] != all[v] {
				fmt.Fprintf(os.Stderr, "bfs: check failed: dist[%d] = %d, serial %d\n", v, all[v], want[v])
				c.Abort(1)
			}
		}
		fmt.Println("check: distances equal the serial BFS")
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

func serialBFS(p params, root int) []int32 {
	g := buildCSR(p, 0, p.n)
	dist := make([]int32, p.n)
	for i := range dist {
		dist[i] = -1
	}
	dist[root] = 0
	queue := []int32{int32(root)}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, w := range g.neighbours(int(u)) {
			if dist[w] < 0 {
				dist[w] = dist[u] + 1
				queue = append(queue, w)
			}
		}
	}
	return dist
}
