// Command summa multiplies two dense n x n matrices, C = A x B, by the SUMMA
// algorithm on a pr x pc process grid (the most square factorisation of the
// rank count). A, B and C are distributed in blocks over the grid; for every
// panel of nb columns of A (rows of B) the owning process column broadcasts
// its piece of A along each process row, the owning process row broadcasts
// its piece of B along each process column, and every rank adds the product
// of the two panels to its block of C.
//
//	go run . -np 4 -n 600 -nb 64
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

// tile is the edge of the cache blocks in the local kernel.
const tile = 48

// block is a dense row-major matrix piece.
type block struct {
	rows, cols int
	data       []float64
}

func newBlock(rows, cols int) *block {
	return &block{rows: rows, cols: cols, data: make([]float64, rows*cols)}
}

// at returns element (i, j).
func (b *block) at(i, j int) float64 { return b.data[i*b.cols+j] }

// mulAdd adds a x p to b, with a rows x k and p k x cols, in cache tiles.
func (b *block) mulAdd(a, p *block) {
	n, m, kk := b.rows, b.cols, a.cols
	for i0 := 0; i0 < n; i0 += tile {
		i1 := min(i0+tile, n)
		for k0 := 0; k0 < kk; k0 += tile {
			k1 := min(k0+tile, kk)
			for j0 := 0; j0 < m; j0 += tile {
				j1 := min(j0+tile, m)
				for i := i0; i < i1; i++ {
					crow := b.data[i*m : (i+1)*m]
					arow := a.data[i*kk : (i+1)*kk]
					for k := k0; k < k1; k++ {
						aik := arow[k]
						prow := p.data[k*m : (k+1)*m]
						for j := j0; j < j1; j++ {
							crow[j] += aik * prow[j]
						}
					}
				}
			}
		}
	}
}

// span is the half-open range of n items that part r of parts holds.
func span(n, parts, r int) (lo, hi int) { return r * n / parts, (r + 1) * n / parts }

// owner is the part of parts that holds item k of n.
func owner(n, parts, k int) int {
	for r := 0; r < parts; r++ {
		if _, hi := span(n, parts, r); k < hi {
			return r
		}
	}
	return parts - 1
}

// gridShape is the most square factorisation pr x pc of p, pr <= pc.
func gridShape(p int) (pr, pc int) {
	pr = int(math.Sqrt(float64(p)))
	for p%pr != 0 {
		pr--
	}
	return pr, p / pr
}

func aElem(i, k int) float64 { return float64((i*7+k*3)%17)/17 - 0.5 }
func bElem(k, j int) float64 { return float64((k*5+j*11)%13)/13 - 0.4 }

// grid is a rank's place in the process grid.
type grid struct {
	pr, pc, row, col int
	rowComm, colComm *mpi.Comm
	n                int
	r0, r1, c0, c1   int // the rows and columns of C (and A's rows, B's columns) held here
}

func newGrid(c *mpi.Comm, n int) *grid {
	g := &grid{n: n}
	g.pr, g.pc = gridShape(c.Size())
	g.row, g.col = c.Rank()/g.pc, c.Rank()%g.pc
	g.rowComm = c.Split(g.row, g.col) // rank in rowComm == col
	g.colComm = c.Split(g.col, g.row) // rank in colComm == row
	g.r0, g.r1 = span(n, g.pr, g.row)
	g.c0, g.c1 = span(n, g.pc, g.col)
	return g
}

func main() {
	n := flag.Int("n", 880, "matrix order")
	nb := flag.Int("nb", 64, "panel width")
	check := flag.Bool("check", true, "check sampled entries of C against a serial product on rank 0")
	flag.Parse()
	if *n < 1 || *nb < 1 {
		fmt.Fprintln(os.Stderr, "summa: -n and -nb must be positive")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *nb, *check) })
}

func run(c *mpi.Comm, n, nb int, check bool) {
	g := newGrid(c, n)
	myRows, myCols := g.r1-g.r0, g.c1-g.c0
	// A is split like C in rows (over pr) and in columns over pc;
	// B in rows over pr and in columns like C (over pc).
	ak0, ak1 := span(n, g.pc, g.col)
	bk0, bk1 := span(n, g.pr, g.row)
	a := newBlock(myRows, ak1-ak0)
	b := newBlock(bk1-bk0, myCols)
	for i := 0; i < a.rows; i++ {
		for k := 0; k < a.cols; k++ {
			a.data[i*a.cols+k] = aElem(g.r0+i, ak0+k)
		}
	}
	for k := 0; k < b.rows; k++ {
		for j := 0; j < b.cols; j++ {
			b.data[k*b.cols+j] = bElem(bk0+k, g.c0+j)
		}
	}
	cb := newBlock(myRows, myCols)
	abuf := make([]float64, myRows*nb)
	bbuf := make([]float64, nb*myCols)

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	steps := 0
	for k0 := 0; k0 < n; {
		ja, ib := owner(n, g.pc, k0), owner(n, g.pr, k0)
		_, aEnd := span(n, g.pc, ja)
		_, bEnd := span(n, g.pr, ib)
		kw := min(nb, aEnd-k0, bEnd-k0)
		ap := &block{rows: myRows, cols: kw, data: abuf[:myRows*kw]}
		bp := &block{rows: kw, cols: myCols, data: bbuf[:kw*myCols]}
		if g.col == ja {
			off := k0 - ak0
			for i := 0; i < myRows; i++ {
				copy(ap.data[i*kw:(i+1)*kw], a.data[i*a.cols+off:i*a.cols+off+kw])
			}
		}
		if g.row == ib {
			off := k0 - bk0
			copy(bp.data, b.data[off*myCols:(off+kw)*myCols])
		}
		mpi.Bcast(g.rowComm, ap.data, ja)
		mpi.Bcast(g.colComm, bp.data, ib)
		cb.mulAdd(ap, bp)
		k0 += kw
		steps++
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0

	// gather the blocks of C on rank 0
	size := c.Size()
	counts, displs := make([]int, size), make([]int, size)
	total := 0
	for r := 0; r < size; r++ {
		lo, hi := span(n, g.pr, r/g.pc)
		clo, chi := span(n, g.pc, r%g.pc)
		counts[r], displs[r] = (hi-lo)*(chi-clo), total
		total += counts[r]
	}
	var all []float64
	if c.Rank() == 0 {
		all = make([]float64, total)
	}
	mpi.Gatherv(c, cb.data, all, counts, displs, 0)
	if c.Rank() != 0 {
		return
	}
	full := unpack(all, n, g.pr, g.pc, displs)
	tr := 0.0
	for i := 0; i < n; i++ {
		tr += full[i][i]
	}
	fmt.Printf("summa: n=%d nb=%d grid=%dx%d steps=%d trace(C)=%.6g\n", n, nb, g.pr, g.pc, steps, tr)
	if check {
		bad := 0
		for s := 0; s < 400; s++ {
			i, j := (s*7919+13)%n, (s*104729+7)%n
			want := 0.0
			for k := 0; k < n; k++ {
				want += aElem(i, k) * bElem(k, j)
			}
			if math.Abs(full[i][j]-want) > 1e-9*float64(n) {
				if bad < 5 {
					fmt.Fprintf(os.Stderr, "summa: C[%d][%d] = %g, serial %g\n", i, j, full[i][j], want)
				}
				bad++
			}
		}
		if bad > 0 {
			fmt.Fprintf(os.Stderr, "summa: check failed: %d of 400 sampled entries differ\n", bad)
			c.Abort(1)
		}
		fmt.Println("check: 400 sampled entries equal the serial product")
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

// unpack turns the gathered blocks into rows of the whole matrix.
func unpack(all []float64, n, pr, pc int, displs []int) [][]float64 {
	full := make([][]float64, n)
	for i := range full {
		full[i] = make([]float64, n)
	}
	for r := 0; r < pr*pc; r++ {
		lo, hi := span(n, pr, r/pc)
		clo, chi := span(n, pc, r%pc)
		w := chi - clo
		for i := lo; i < hi; i++ {
			copy(full[i][clo:chi], all[displs[r]+(i-lo)*w:displs[r]+(i-lo+1)*w])
		}
	}
	return full
}
