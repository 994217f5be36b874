package main

// rowLayout returns the element counts and offsets of the row blocks of an
// n-row, width-column matrix over size ranks: rank r holds rows
// [r*n/size, (r+1)*n/size).
func rowLayout(size, n, width int) (counts, displs []int) {
	counts, displs = make([]int, size), make([]int, size)
	for r := range size {
		lo, hi := r*n/size, (r+1)*n/size
		counts[r], displs[r] = (hi-lo)*width, lo*width
	}
	return counts, displs
}

// exchangeLayout returns the Alltoallv counts and offsets of one transpose
// for rank: it sends rank r its rows restricted to r's columns
// (rows x rows_r elements) and receives r's rows restricted to its own
// columns (rows_r x rows).
func exchangeLayout(rank, size, n int) (sendCounts, sendDispls, recvCounts, recvDispls []int) {
	rows := (rank+1)*n/size - rank*n/size
	sendCounts, sendDispls = make([]int, size), make([]int, size)
	recvCounts, recvDispls = make([]int, size), make([]int, size)
	off := 0
	for r := range size {
		rowsR := (r+1)*n/size - r*n/size
		sendCounts[r], sendDispls[r] = rows*rowsR, off
		recvCounts[r], recvDispls[r] = rowsR*rows, off
		off += rows * rowsR
	}
	return sendCounts, sendDispls, recvCounts, recvDispls
}

// sumSquares is the number of elements that stay on their rank in a
// transpose: the sum of the squares of the block sizes.
func sumSquares(size, n int) int {
	s := 0
	for r := range size {
		b := (r+1)*n/size - r*n/size
		s += b * b
	}
	return s
}
