// repro-appendlen: each rank builds the list of its rows with append in a
// set-up loop (as a CSR code's "local rows" / "rows with ghosts" lists)
// and then loops over the list every step. -style list: range over the
// appended list; -style csr: the list of rows whose CSR columns are all
// local; -style range: the same rows by index bounds.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

// csrM is a matrix's column structure.
type csrM struct{ ptr, col []int }

// buildCSR appends the columns of rows lo..hi-1 of a 1-D 3-point stencil.
func buildCSR(lo, hi, n int) *csrM {
	a := &csrM{ptr: []int{0}}
	for r := lo; r < hi; r++ {
		if r > 0 {
			a.col = append(a.col, r-1)
		}
		a.col = append(a.col, r)
		if r < n-1 {
			a.col = append(a.col, r+1)
		}
		a.ptr = append(a.ptr, len(a.col))
	}
	return a
}

type part struct {
	lo, hi int
	rows   []int
	y      []float64
}

func newPart(c *mpi.Comm, n int, csr bool) *part {
	p := &part{lo: c.Rank() * n / c.Size(), hi: (c.Rank() + 1) * n / c.Size()}
	if csr {
		// CSR-like: neighbours' columns appended per row into the fields
		// of a struct, then the rows whose columns are all local are
		// listed (a SpMV's local rows)
		a := buildCSR(p.lo, p.hi, n)
		for r := 0; r < p.hi-p.lo; r++ {
			local := true
			for k := a.ptr[r]; k < a.ptr[r+1]; k++ {
				if a.col[k] < p.lo || a.col[k] >= p.hi {
					local = false
				}
			}
			if local {
				p.rows = append(p.rows, r)
			}
		}
	} else {
		for r := p.lo; r < p.hi; r++ {
			p.rows = append(p.rows, r-p.lo)
		}
	}
	p.y = make([]float64, p.hi-p.lo)
	return p
}

func (p *part) stepList() {
	for _, r := range p.rows {
		p.y[r] = 0.5*p.y[r] + float64(r)
	}
}

func (p *part) stepRange() {
	for r := 0; r < p.hi-p.lo; r++ {
		p.y[r] = 0.5*p.y[r] + float64(r)
	}
}

func main() {
	n := flag.Int("n", 1000000, "rows")
	steps := flag.Int("steps", 100, "steps")
	style := flag.String("style", "list", "list, csr (list built from CSR columns) or range")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		p := newPart(c, *n, *style == "csr")
		s, t := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for i := 0; i < *steps; i++ {
			if *style != "range" {
				p.stepList()
			} else {
				p.stepRange()
			}
			s[0] = p.y[0]
			mpi.Allreduce(c, s, t, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("done", p.y[len(p.y)-1])
		}
	})
}
