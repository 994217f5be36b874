// Command jacobi solves -u” = f on (0, 1), u(0) = u(1) = 0, with n interior
// points by a fixed number of Jacobi sweeps. Rank 0 builds the right-hand
// side serially (f is a Fourier series of -terms terms at every point) and
// scatters it (Scatterv); every rank sweeps its block, exchanging one ghost
// value with each neighbour per sweep (Sendrecv) and summing the update
// norm every -every sweeps (Allreduce). The solution is gathered (Gatherv).
// -check reruns the sweeps serially on rank 0 and compares.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type params struct {
	n, sweeps, terms, every int
	check                   bool
}

// rhs builds f at the n interior points: h^2 * sum_k sin(k pi x)/k.
func rhs(p params) []float64 {
	f := make([]float64, p.n)
	h := 1 / float64(p.n+1)
	for i := range f {
		x := float64(i+1) * h
		s := 0.0
		for k := 1; k <= p.terms; k++ {
			s += math.Sin(float64(k)*math.Pi*x) / float64(k)
		}
		f[i] = h * h * s
	}
	return f
}

// sweep does one Jacobi sweep over u[1:len(u)-1] into v, returns sum of
// squared updates. u[0] and u[len-1] are the ghosts.
func sweep(u, v, f []float64) float64 {
	d := 0.0
	for i := 1; i < len(u)-1; i++ {
		nv := 0.5 * (u[i-1] + u[i+1] + f[i-1])
		e := nv - u[i]
		d += e * e
		v[i] = nv
	}
	return d
}

// serial runs the whole solve on one process.
func serial(p params, f []float64) ([]float64, float64) {
	u := make([]float64, p.n+2)
	v := make([]float64, p.n+2)
	res := 0.0
	for s := 0; s < p.sweeps; s++ {
		d := sweep(u, v, f)
		if (s+1)%p.every == 0 {
			res = math.Sqrt(d)
		}
		u, v = v, u
	}
	return u[1 : p.n+1], res
}

func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	counts, displs := make([]int, size), make([]int, size)
	for r := 0; r < size; r++ {
		displs[r] = r * p.n / size
		counts[r] = (r+1)*p.n/size - displs[r]
	}
	nloc := counts[rank]
	var f []float64
	if rank == 0 {
		f = rhs(p)
	}
	floc := make([]float64, nloc)
	mpi.Scatterv(c, f, counts, displs, floc, 0)

	u := make([]float64, nloc+2)
	v := make([]float64, nloc+2)
	loc, glob := make([]float64, 1), make([]float64, 1)
	res := 0.0
	c.BeginInterval(1)
	for s := 0; s < p.sweeps; s++ {
		if rank%2 == 0 {
			if rank+1 < size {
				mpi.Sendrecv(c, u[nloc:nloc+1], rank+1, 0, u[nloc+1:], rank+1, 0)
			}
			if rank > 0 {
				mpi.Sendrecv(c, u[1:2], rank-1, 0, u[:1], rank-1, 0)
			}
		} else {
			mpi.Sendrecv(c, u[1:2], rank-1, 0, u[:1], rank-1, 0)
			if rank+1 < size {
				mpi.Sendrecv(c, u[nloc:nloc+1], rank+1, 0, u[nloc+1:], rank+1, 0)
			}
		}
		loc[0] = sweep(u, v, floc)
		if (s+1)%p.every == 0 {
			mpi.Allreduce(c, loc, glob, mpi.Sum)
			res = math.Sqrt(glob[0])
		}
		u, v = v, u
	}
	c.EndInterval(1)
	var all []float64
	if rank == 0 {
		all = make([]float64, p.n)
	}
	mpi.Gatherv(c, u[1:nloc+1], all, counts, displs, 0)
	if rank != 0 {
		return
	}
	fmt.Printf("P=%d residual=%.6g u(1/2)=%.12g\n", size, res, all[p.n/2])
	if !p.check {
		return
	}
	us, rs := serial(p, f)
	maxd := 0.0
	for i := range us {
		maxd = math.Max(maxd, math.Abs(us[i]-all[i]))
	}
	ok := maxd < 1e-12 && math.Abs(rs-res) <= 1e-9*rs
	fmt.Printf("check: serial residual=%.6g max|du|=%.3g ok=%v\n", rs, maxd, ok)
	if !ok {
		os.Exit(1)
	}
}

func main() {
	var p params
	flag.IntVar(&p.n, "n", 100000, "interior points")
	flag.IntVar(&p.sweeps, "sweeps", 600, "Jacobi sweeps")
	flag.IntVar(&p.terms, "terms", 60, "Fourier terms of f")
	flag.IntVar(&p.every, "every", 20, "sweeps between residual reductions")
	flag.BoolVar(&p.check, "check", true, "verify serially on rank 0")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}
