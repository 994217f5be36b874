// repro-waitall-field: a request list kept in a struct field and reset
// with s.reqs = s.reqs[:0] each step (a common allocation-free idiom).
// -style field: the field as written; -style copy: reqs := r.reqs[:0],
// append to the local, store back; -style index: a field of length 2
// made once, r.reqs[i] = ...; -style local: a fresh local slice.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type ring struct {
	c       *mpi.Comm
	out, in []float64
	reqs    []*mpi.Request
}

func (r *ring) stepField() {
	rank, size := r.c.Rank(), r.c.Size()
	r.reqs = r.reqs[:0]
	if size > 1 {
		r.reqs = append(r.reqs, mpi.Irecv(r.c, r.in, (rank+size-1)%size, 1))
		r.reqs = append(r.reqs, mpi.Isend(r.c, r.out, (rank+1)%size, 1))
	}
	mpi.Waitall(r.reqs...)
}

// stepCopy reuses the field's storage through a local slice.
func (r *ring) stepCopy() {
	rank, size := r.c.Rank(), r.c.Size()
	reqs := r.reqs[:0]
	if size > 1 {
		reqs = append(reqs, mpi.Irecv(r.c, r.in, (rank+size-1)%size, 1))
		reqs = append(reqs, mpi.Isend(r.c, r.out, (rank+1)%size, 1))
	}
	r.reqs = reqs
	mpi.Waitall(reqs...)
}

// stepIndex stores into a field allocated once with room for two.
func (r *ring) stepIndex() {
	rank, size := r.c.Rank(), r.c.Size()
	if size > 1 {
		r.reqs[0] = mpi.Irecv(r.c, r.in, (rank+size-1)%size, 1)
		r.reqs[1] = mpi.Isend(r.c, r.out, (rank+1)%size, 1)
		mpi.Waitall(r.reqs...)
	}
}

func (r *ring) stepLocal() {
	rank, size := r.c.Rank(), r.c.Size()
	var reqs []*mpi.Request
	if size > 1 {
		reqs = append(reqs, mpi.Irecv(r.c, r.in, (rank+size-1)%size, 1))
		reqs = append(reqs, mpi.Isend(r.c, r.out, (rank+1)%size, 1))
	}
	mpi.Waitall(reqs...)
}

func main() {
	steps := flag.Int("steps", 1000, "steps")
	style := flag.String("style", "field", "field, copy, index or local")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		r := &ring{c: c, out: make([]float64, 100), in: make([]float64, 100)}
		if *style == "index" {
			r.reqs = make([]*mpi.Request, 2)
		}
		c.BeginInterval(1)
		for i := 0; i < *steps; i++ {
			switch *style {
			case "field":
				r.stepField()
			case "copy":
				r.stepCopy()
			case "index":
				r.stepIndex()
			default:
				r.stepLocal()
			}
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("done")
		}
	})
}
