package main

import "github.com/parpredict/parpredict/mpi"

// Tags name the direction a halo message travels: a rank's first row goes
// north to the rank above with tagNorth, its last column east with
// tagEast, and so on.
const (
	tagNorth = 1
	tagSouth = 2
	tagWest  = 3
	tagEast  = 4
)

// halo is a rank's neighbours (-1 where the grid's fixed edge is instead)
// and the buffers its edge columns travel in.
type halo struct {
	north, south, west, east int
	rows, cols               int
	sendW, sendE             []float64
	recvW, recvE             []float64
	reqs                     []*mpi.Request
}

func newHalo(g procGrid, rank int, b block) *halo {
	return &halo{
		north: g.rank(b.pr-1, b.pc), south: g.rank(b.pr+1, b.pc),
		west: g.rank(b.pr, b.pc-1), east: g.rank(b.pr, b.pc+1),
		rows: b.rows, cols: b.cols,
		sendW: make([]float64, b.rows), sendE: make([]float64, b.rows),
		recvW: make([]float64, b.rows), recvE: make([]float64, b.rows),
		reqs: make([]*mpi.Request, 0, 8),
	}
}

// exchange fills u's halo rows and columns with the neighbours' edges:
// all receives are posted first, then the sends, and one Waitall waits for
// the eight messages of an interior rank.
func (h *halo) exchange(c *mpi.Comm, u []float64) {
	w := h.cols + 2
	top := u[1 : 1+h.cols]                              // halo row 0
	first := u[w+1 : w+1+h.cols]                        // interior row 1
	last := u[h.rows*w+1 : h.rows*w+1+h.cols]           // interior row rows
	bottom := u[(h.rows+1)*w+1 : (h.rows+1)*w+1+h.cols] // halo row rows+1
	reqs := h.reqs[:0]
	if h.north >= 0 {
		reqs = append(reqs, mpi.Irecv(c, top, h.north, tagSouth))
	}
	if h.south >= 0 {
		reqs = append(reqs, mpi.Irecv(c, bottom, h.south, tagNorth))
	}
	if h.west >= 0 {
		reqs = append(reqs, mpi.Irecv(c, h.recvW, h.west, tagEast))
	}
	if h.east >= 0 {
		reqs = append(reqs, mpi.Irecv(c, h.recvE, h.east, tagWest))
	}
	if h.north >= 0 {
		reqs = append(reqs, mpi.Isend(c, first, h.north, tagNorth))
	}
	if h.south >= 0 {
		reqs = append(reqs, mpi.Isend(c, last, h.south, tagSouth))
	}
	if h.west >= 0 {
		packColumn(h.sendW, u, w, 1)
		reqs = append(reqs, mpi.Isend(c, h.sendW, h.west, tagWest))
	}
	if h.east >= 0 {
		packColumn(h.sendE, u, w, h.cols)
		reqs = append(reqs, mpi.Isend(c, h.sendE, h.east, tagEast))
	}
	mpi.Waitall(reqs...)
	if h.west >= 0 {
		unpackColumn(u, h.recvW, w, 0)
	}
	if h.east >= 0 {
		unpackColumn(u, h.recvE, w, h.cols+1)
	}
	h.reqs = reqs
}
