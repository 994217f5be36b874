package main

// procGrid is a px x py arrangement of the ranks: rank r sits in grid row
// r / py and grid column r % py.
type procGrid struct{ px, py int }

// newProcGrid picks the most square px x py with px * py = size and
// px <= py.
func newProcGrid(size int) procGrid {
	px := 1
	for d := 1; d*d <= size; d++ {
		if size%d == 0 {
			px = d
		}
	}
	return procGrid{px: px, py: size / px}
}

// block is the part of the m x m interior a rank owns: interior rows
// [row, row+rows) and columns [col, col+cols), counted from 0.
type block struct {
	pr, pc    int // the rank's place in the process grid
	row, rows int
	col, cols int
}

// block is rank's block: grid row pr gets interior rows
// [pr*m/px, (pr+1)*m/px), and the same for columns.
func (g procGrid) block(rank, m int) block {
	pr, pc := rank/g.py, rank%g.py
	lo, hi := pr*m/g.px, (pr+1)*m/g.px
	clo, chi := pc*m/g.py, (pc+1)*m/g.py
	return block{pr: pr, pc: pc, row: lo, rows: hi - lo, col: clo, cols: chi - clo}
}

// rank is the rank at grid row pr and column pc, or -1 outside the grid.
func (g procGrid) rank(pr, pc int) int {
	if pr < 0 || pr >= g.px || pc < 0 || pc >= g.py {
		return -1
	}
	return pr*g.py + pc
}
