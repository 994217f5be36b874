package main

// myRows describes the rows of an h-row image that rank computes: rows
// first, first+stride, ..., count of them. Block: a contiguous band
// [rank*h/size, (rank+1)*h/size). Cyclic: every size-th row from rank.
func myRows(rank, size, h int, cyclic bool) (first, stride, count int) {
	if cyclic {
		count = 0
		if rank < h {
			count = (h - rank + size - 1) / size
		}
		return rank, size, count
	}
	lo, hi := rank*h/size, (rank+1)*h/size
	return lo, 1, hi - lo
}

// gatherLayout returns the Gatherv counts and offsets (in pixels) of every
// rank's rows, each rank's rows packed one after another.
func gatherLayout(size, h, w int, cyclic bool) (counts, displs []int) {
	counts, displs = make([]int, size), make([]int, size)
	off := 0
	for r := range size {
		_, _, count := myRows(r, size, h, cyclic)
		counts[r], displs[r] = count*w, off
		off += count * w
	}
	return counts, displs
}

// placeRows copies the gathered rows, packed by rank, to their places in
// image.
func placeRows(gathered, image []int32, size, h, w int, cyclic bool) {
	off := 0
	for r := 0; r < size; r++ {
		first, stride, count := myRows(r, size, h, cyclic)
		for k := 0; k < count; k++ {
			y := first + k*stride
			copy(image[y*w:(y+1)*w], gathered[off:off+w])
			off += w
		}
	}
}
