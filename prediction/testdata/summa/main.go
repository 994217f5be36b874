// Command summa multiplies two n x n matrices with the SUMMA algorithm on
// a pr x pc grid of ranks (pr the largest divisor of the rank count not
// above its square root): each rank holds one block of A, B and C, and
// for every panel of nb columns of A (rows of B) the panel's owners
// broadcast it along their grid row (A) and grid column (B), on
// communicators made with Split, before every rank adds the panels'
// product to its block of C.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 480, "matrix order (a multiple of nb times both grid sizes)")
	nb := flag.Int("nb", 8, "panel width")
	check := flag.Bool("check", true, "compare the trace of C with the exact one on rank 0")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *nb, *check) })
}

// grid is the largest divisor of p not above its square root, and p over it.
func grid(p int) (pr, pc int) {
	pr = 1
	for d := 1; d*d <= p; d++ {
		if p%d == 0 {
			pr = d
		}
	}
	return pr, p / pr
}

func run(c *mpi.Comm, n, nb int, check bool) {
	rank, size := c.Rank(), c.Size()
	pr, pc := grid(size)
	if n%(nb*pr) != 0 || n%(nb*pc) != 0 {
		if rank == 0 {
			fmt.Fprintf(os.Stderr, "summa: -n %d is not a multiple of nb (%d) times the grid's %d x %d\n", n, nb, pr, pc)
		}
		c.Abort(2)
	}
	myRow, myCol := rank/pc, rank%pc
	row := c.Split(myRow, myCol) // the ranks of my grid row, by column
	col := c.Split(myCol, myRow) // the ranks of my grid column, by row
	mb, kb := n/pr, n/pc         // my block is mb x kb

	a := make([]float64, mb*kb)
	b := make([]float64, mb*kb)
	cm := make([]float64, mb*kb)
	fill(a, b, myRow*mb, myCol*kb, mb, kb)
	aPanel := make([]float64, mb*nb)
	bPanel := make([]float64, nb*kb)

	c.Barrier()
	c.BeginInterval(1)
	for k := 0; k < n; k += nb {
		// Column k of A lives on grid column k/kb; row k of B on grid row k/mb.
		owner := k / kb
		if myCol == owner {
			packCols(a, aPanel, mb, kb, k%kb, nb)
		}
		mpi.Bcast(row, aPanel, owner)
		owner = k / mb
		if myRow == owner {
			copy(bPanel, b[(k%mb)*kb:(k%mb+nb)*kb])
		}
		mpi.Bcast(col, bPanel, owner)
		multiplyAdd(aPanel, bPanel, cm, mb, kb, nb)
	}
	c.EndInterval(1)

	if check {
		local := []float64{diagonal(cm, myRow*mb, myCol*kb, mb, kb)}
		total := []float64{0}
		mpi.Reduce(c, local, total, mpi.Sum, 0)
		if rank == 0 {
			want := exactTrace(n)
			if d := total[0] - want; d > 1e-6*want || d < -1e-6*want {
				fmt.Fprintf(os.Stderr, "summa: check failed: trace(C) = %.10g, want %.10g\n", total[0], want)
				c.Abort(1)
			}
			fmt.Println("check: trace(C) is exact")
		}
	}
	if rank == 0 {
		fmt.Printf("summa: n=%d ranks=%d grid=%dx%d\n", n, size, pr, pc)
	}
}

// fill sets my blocks of A[i][j] = (i+j)%7 and B[i][j] = (i-j)%5 + 2.
func fill(a, b []float64, i0, j0, mb, kb int) {
	for i := 0; i < mb; i++ {
		for j := 0; j < kb; j++ {
			gi, gj := i0+i, j0+j
			a[i*kb+j] = float64((gi + gj) % 7)
			b[i*kb+j] = float64((gi-gj)%5 + 2)
		}
	}
}

// packCols copies columns j0 .. j0+nb of the mb x kb block a into panel.
func packCols(a, panel []float64, mb, kb, j0, nb int) {
	for i := 0; i < mb; i++ {
		copy(panel[i*nb:(i+1)*nb], a[i*kb+j0:i*kb+j0+nb])
	}
}

// multiplyAdd adds the product of the mb x nb and nb x kb panels to cm.
func multiplyAdd(aPanel, bPanel, cm []float64, mb, kb, nb int) {
	for i := 0; i < mb; i++ {
		for p := 0; p < nb; p++ {
			x := aPanel[i*nb+p]
			for j := 0; j < kb; j++ {
				cm[i*kb+j] += x * bPanel[p*kb+j]
			}
		}
	}
}

// diagonal sums the entries of my block of C on the global diagonal.
func diagonal(cm []float64, i0, j0, mb, kb int) float64 {
	s := 0.0
	for i := 0; i < mb; i++ {
		if j := i0 + i - j0; j >= 0 && j < kb {
			s += cm[i*kb+j]
		}
	}
	return s
}

// exactTrace is the trace of A B computed serially from the formulas.
func exactTrace(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		for k := 0; k < n; k++ {
			s += float64((i+k)%7) * float64((k-i)%5+2)
		}
	}
	return s
}
