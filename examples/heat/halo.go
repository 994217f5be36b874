package main

import "github.com/parpredict/parpredict/mpi"

// Tags of halo messages: tagDown carries a rank's last row to the rank
// below, tagUp its first row to the rank above.
const (
	tagDown = 1
	tagUp   = 2
)

// exchangeHalos sends this rank's first and last interior rows to the
// neighbours above and below and receives theirs into the halo rows 0 and
// rows+1 of u. The first and last ranks have no neighbour on one side: the
// fixed edge of the grid sits in that halo row.
//
// Pairs exchange in two phases (even ranks talk downward first, odd ranks
// upward first), so all pairs of a phase proceed at once instead of one
// after another along the chain of ranks.
func exchangeHalos(c *mpi.Comm, u []float64, rows, n int) {
	rank, size := c.Rank(), c.Size()
	top, first := u[0:n], u[n:2*n]
	last, bottom := u[rows*n:(rows+1)*n], u[(rows+1)*n:(rows+2)*n]
	for phase := 0; phase < 2; phase++ {
		if (rank+phase)%2 == 0 {
			if rank+1 < size {
				mpi.Sendrecv(c, last, rank+1, tagDown, bottom, rank+1, tagUp)
			}
		} else if rank > 0 {
			mpi.Sendrecv(c, first, rank-1, tagUp, top, rank-1, tagDown)
		}
	}
}
