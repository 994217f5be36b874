// Command life2d plays Conway's game of life on an n x n torus. The ranks
// form a px x py process grid (the most square factorisation of the rank
// count, px <= py); each owns a block of rows x columns with a one-cell
// halo. Every generation it posts non-blocking receives and sends of its
// four edges (the columns packed into buffers) and four corners to the
// eight neighbours, updates the interior that needs no halo while the
// messages travel, waits for them all, unpacks the columns and updates the
// boundary ring. Every -every generations the ranks count the live cells
// with an Allreduce. With -check rank 0 gathers the board and compares it
// with a serial run.
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
	n, gens, every int
	density        float64
	seed           uint64
	check          bool
}

// the eight directions, also the message tags
const (
	north = iota
	south
	west
	east
	nw
	ne
	sw
	se
)

// opposite[d] is the direction a message sent towards d arrives from.
var opposite = [8]int{south, north, east, west, se, sw, ne, nw}

// grid is the process grid: rank = row*py + col.
type grid struct {
	px, py   int
	row, col int
}

func newGrid(size, rank int) grid {
	px := 1
	for d := 1; d*d <= size; d++ {
		if size%d == 0 {
			px = d
		}
	}
	py := size / px
	return grid{px: px, py: py, row: rank / py, col: rank % py}
}

func (g grid) rankAt(row, col int) int {
	row = (row + g.px) % g.px
	col = (col + g.py) % g.py
	return row*g.py + col
}

// neighbours returns the rank in each direction.
func (g grid) neighbours() [8]int {
	// unrolled: the loop form is fault 1 of predict (NOTES-H.md)
	var nb [8]int
	nb[north] = g.rankAt(g.row-1, g.col)
	nb[south] = g.rankAt(g.row+1, g.col)
	nb[west] = g.rankAt(g.row, g.col-1)
	nb[east] = g.rankAt(g.row, g.col+1)
	nb[nw] = g.rankAt(g.row-1, g.col-1)
	nb[ne] = g.rankAt(g.row-1, g.col+1)
	nb[sw] = g.rankAt(g.row+1, g.col-1)
	nb[se] = g.rankAt(g.row+1, g.col+1)
	return nb
}

// span is the half-open block [lo, hi) of n items that part i of k gets.
func span(n, k, i int) (lo, hi int) { return i * n / k, (i + 1) * n / k }

// cellAt is the initial state of global cell (i, j).
func cellAt(p params, i, j int) uint8 {
	x := (p.seed + uint64(i)*uint64(p.n) + uint64(j)) * 0x9E3779B97F4A7C15
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 29
	if float64(x>>11)/(1<<53) < p.density {
		return 1
	}
	return 0
}

// block is one rank's part of the board with its halo: (rows+2) x (cols+2).
type block struct {
	rows, cols int
	w          int // row stride, cols+2
	cur, next  []uint8
}

func newBlock(rows, cols int) *block {
	w := cols + 2
	return &block{rows: rows, cols: cols, w: w,
		cur: make([]uint8, (rows+2)*w), next: make([]uint8, (rows+2)*w)}
}

func (b *block) at(i, j int) int { return i*b.w + j }

// rule applies the game's rule to cell (i, j) of cur, writing next.
func (b *block) rule(i, j int) {
	c, w := b.cur, b.w
	k := i*w + j
	s := c[k-w-1] + c[k-w] + c[k-w+1] + c[k-1] + c[k+1] + c[k+w-1] + c[k+w] + c[k+w+1]
	if s == 3 || (s == 2 && c[k] == 1) {
		b.next[k] = 1
	} else {
		b.next[k] = 0
	}
}

// updateRange updates rows i0..i1-1, columns j0..j1-1 (local, 1-based).
func (b *block) updateRange(i0, i1, j0, j1 int) {
	for i := i0; i < i1; i++ {
		for j := j0; j < j1; j++ {
			b.rule(i, j)
		}
	}
}

func (b *block) live() int64 {
	var s int64
	for i := 1; i <= b.rows; i++ {
		for j := 1; j <= b.cols; j++ {
			s += int64(b.cur[b.at(i, j)])
		}
	}
	return s
}

// halo holds the buffers of one rank's exchange.
type halo struct {
	c                  *mpi.Comm
	nb                 [8]int
	sendW, sendE       []uint8
	recvW, recvE       []uint8
	sendN, sendS       []uint8
	recvN, recvS       []uint8
	corner, cornerRecv [4][]uint8
	reqs               []*mpi.Request
}

func newHalo(c *mpi.Comm, g grid, b *block) *halo {
	h := &halo{c: c, nb: g.neighbours()}
	h.sendW, h.sendE = make([]uint8, b.rows), make([]uint8, b.rows)
	h.recvW, h.recvE = make([]uint8, b.rows), make([]uint8, b.rows)
	h.sendN, h.sendS = make([]uint8, b.cols), make([]uint8, b.cols)
	h.recvN, h.recvS = make([]uint8, b.cols), make([]uint8, b.cols)
	for k := range 4 {
		h.corner[k] = make([]uint8, 1)
		h.cornerRecv[k] = make([]uint8, 1)
	}
	h.reqs = make([]*mpi.Request, 0, 16)
	return h
}

// start posts the receives and sends of the current board's edges.
func (h *halo) start(b *block) {
	c := h.c
	h.reqs = h.reqs[:0]
	// a message sent towards d is received from opposite[d] with tag d
	recv := func(buf []uint8, from int) {
		h.reqs = append(h.reqs, mpi.Irecv(c, buf, h.nb[from], opposite[from]))
	}
	send := func(buf []uint8, to int) {
		h.reqs = append(h.reqs, mpi.Isend(c, buf, h.nb[to], to))
	}
	recv(h.recvN, north)
	recv(h.recvS, south)
	recv(h.recvW, west)
	recv(h.recvE, east)
	for k, d := range []int{nw, ne, sw, se} {
		recv(h.cornerRecv[k], d)
	}

	for i := 1; i <= b.rows; i++ {
		h.sendW[i-1] = b.cur[b.at(i, 1)]
		h.sendE[i-1] = b.cur[b.at(i, b.cols)]
	}
	copy(h.sendN, b.cur[b.at(1, 1):b.at(1, b.cols+1)])
	copy(h.sendS, b.cur[b.at(b.rows, 1):b.at(b.rows, b.cols+1)])
	h.corner[0][0] = b.cur[b.at(1, 1)]
	h.corner[1][0] = b.cur[b.at(1, b.cols)]
	h.corner[2][0] = b.cur[b.at(b.rows, 1)]
	h.corner[3][0] = b.cur[b.at(b.rows, b.cols)]
	send(h.sendN, north)
	send(h.sendS, south)
	send(h.sendW, west)
	send(h.sendE, east)
	for k, d := range []int{nw, ne, sw, se} {
		send(h.corner[k], d)
	}
}

// finish waits for the exchange and writes the halo of the current board.
func (h *halo) finish(b *block) {
	mpi.Waitall(h.reqs...)
	copy(b.cur[b.at(0, 1):b.at(0, b.cols+1)], h.recvN)
	copy(b.cur[b.at(b.rows+1, 1):b.at(b.rows+1, b.cols+1)], h.recvS)
	for i := 1; i <= b.rows; i++ {
		b.cur[b.at(i, 0)] = h.recvW[i-1]
		b.cur[b.at(i, b.cols+1)] = h.recvE[i-1]
	}
	b.cur[b.at(0, 0)] = h.cornerRecv[0][0]
	b.cur[b.at(0, b.cols+1)] = h.cornerRecv[1][0]
	b.cur[b.at(b.rows+1, 0)] = h.cornerRecv[2][0]
	b.cur[b.at(b.rows+1, b.cols+1)] = h.cornerRecv[3][0]
}

func main() {
	var p params
	flag.IntVar(&p.n, "n", 1024, "board size (n x n cells, a torus)")
	flag.IntVar(&p.gens, "gens", 50, "generations")
	flag.IntVar(&p.every, "every", 5, "count the live cells every this many generations")
	flag.Float64Var(&p.density, "density", 0.3, "initial fraction of live cells")
	flag.Uint64Var(&p.seed, "seed", 7, "seed of the initial board")
	flag.BoolVar(&p.check, "check", false, "compare the final board with a serial run on rank 0")
	flag.Parse()
	if p.n < 1 || p.gens < 0 || p.every < 1 {
		fmt.Fprintln(os.Stderr, "life2d: need -n >= 1, -gens >= 0, -every >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	g := newGrid(size, rank)
	if p.n < g.py {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "life2d: -n %d is smaller than the %d x %d process grid\n", p.n, g.px, g.py)
		}
		c.Abort(2)
	}
	r0, r1 := span(p.n, g.px, g.row)
	c0, c1 := span(p.n, g.py, g.col)
	b := newBlock(r1-r0, c1-c0)
	for i := 1; i <= b.rows; i++ {
		for j := 1; j <= b.cols; j++ {
			b.cur[b.at(i, j)] = cellAt(p, r0+i-1, c0+j-1)
		}
	}
	h := newHalo(c, g, b)
	local, total := []int64{0}, []int64{0}
	var counts []int64

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for gen := 1; gen <= p.gens; gen++ {
		h.start(b)
		b.updateRange(2, b.rows, 2, b.cols) // needs no halo
		h.finish(b)
		b.updateRange(1, 2, 1, b.cols+1)
		if b.rows > 1 {
			b.updateRange(b.rows, b.rows+1, 1, b.cols+1)
		}
		b.updateRange(2, b.rows, 1, 2)
		if b.cols > 1 {
			b.updateRange(2, b.rows, b.cols, b.cols+1)
		}
		b.cur, b.next = b.next, b.cur
		if gen%p.every == 0 {
			local[0] = b.live()
			mpi.Allreduce(c, local, total, mpi.Sum)
			counts = append(counts, total[0])
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	// gather the blocks on rank 0
	mine := make([]uint8, 0, b.rows*b.cols)
	for i := 1; i <= b.rows; i++ {
		mine = append(mine, b.cur[b.at(i, 1):b.at(i, b.cols+1)]...)
	}
	var board []uint8
	var cnt, displ []int
	if rank == 0 {
		board = make([]uint8, p.n*p.n)
		cnt, displ = make([]int, size), make([]int, size)
		off := 0
		for r := range size {
			gr := grid{px: g.px, py: g.py, row: r / g.py, col: r % g.py}
			a0, a1 := span(p.n, g.px, gr.row)
			b0, b1 := span(p.n, g.py, gr.col)
			cnt[r], displ[r] = (a1-a0)*(b1-b0), off
			off += cnt[r]
		}
	}
	gathered := board
	if rank == 0 {
		gathered = make([]uint8, p.n*p.n)
	}
	mpi.Gatherv(c, mine, gathered, cnt, displ, 0)
	if rank != 0 {
		return
	}
	for r := range size {
		a0, a1 := span(p.n, g.px, r/g.py)
		b0, b1 := span(p.n, g.py, r%g.py)
		k := displ[r]
		for i := a0; i < a1; i++ {
			for j := b0; j < b1; j++ {
				board[i*p.n+j] = gathered[k]
				k++
			}
		}
	}
	var alive int
	for _, v := range board {
		alive += int(v)
	}
	fmt.Printf("life2d: n=%d gens=%d ranks=%d grid=%dx%d live=%d counts=%v\n", p.n, p.gens, size, g.px, g.py, alive, counts)
	if p.check {
		want, wantCounts := serial(p)
		for k := range board {
			if board[k] != want[k] {
				fmt.Fprintf(os.Stderr, "life2d: check failed at cell (%d, %d)\n", k/p.n, k%p.n)
				c.Abort(1)
			}
		}
		for k := range wantCounts {
			if k >= len(counts) || counts[k] != wantCounts[k] {
				fmt.Fprintf(os.Stderr, "life2d: check failed: live counts %v, serial %v\n", counts, wantCounts)
				c.Abort(1)
			}
		}
		fmt.Println("check: board and live counts equal the serial run")
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

// serial plays the game on the whole torus.
func serial(p params) ([]uint8, []int64) {
	n := p.n
	cur, next := make([]uint8, n*n), make([]uint8, n*n)
	for i := range n {
		for j := range n {
			cur[i*n+j] = cellAt(p, i, j)
		}
	}
	var counts []int64
	for gen := 1; gen <= p.gens; gen++ {
		for i := range n {
			for j := range n {
				var s uint8
				for di := -1; di <= 1; di++ {
					for dj := -1; dj <= 1; dj++ {
						if di != 0 || dj != 0 {
							s += cur[((i+di+n)%n)*n+(j+dj+n)%n]
						}
					}
				}
				if s == 3 || (s == 2 && cur[i*n+j] == 1) {
					next[i*n+j] = 1
				} else {
					next[i*n+j] = 0
				}
			}
		}
		cur, next = next, cur
		if gen%p.every == 0 {
			var s int64
			for _, v := range cur {
				s += int64(v)
			}
			counts = append(counts, s)
		}
	}
	return cur, counts
}
