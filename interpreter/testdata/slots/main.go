// Command slots is interpreter test input for the frame-slot plan: values
// whose lifetimes overlap in the ways the plan must respect (phis that
// swap, loop-carried values, closures, defers, tuples, struct values,
// values live across MPI calls and calls of program functions). How much
// the ranks communicate and which blocks they execute depends on every
// value computed, so a value read from a slot that another value took
// changes the simulation.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type pair struct{ a, b int }

// fib returns F(n) and F(n+1): its phis swap on every iteration.
func fib(n int) (int, int) {
	a, b := 0, 1
	for i := 0; i < n; i++ {
		a, b = b, a+b
	}
	return a, b
}

// mix scrambles p k times; the struct's fields are read and written in
// one parallel assignment.
func mix(p pair, k int) pair {
	for k > 0 {
		p.a, p.b = p.b%97, (p.a*31+k)%101
		k--
	}
	return p
}

// spread has many short-lived temporaries and one long-lived value.
func spread(x, y int) int {
	keep := x*7 + y
	t1 := x + 1
	t2 := t1 * 3
	t3 := t2 - y
	t4 := t3 % 11
	u1 := y + 2
	u2 := u1 * t4
	u3 := u2 + keep
	return u3%53 + keep%5
}

func main() {
	n := flag.Int("n", 12, "problem size")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rank, size := c.Rank(), c.Size()
		f1, f2 := fib(*n + rank)
		p := mix(pair{f1 % 13, f2 % 17}, *n)
		total := 0
		add := func(x int) { total += x }
		names := map[int]string{}
		buf := make([]float64, 64)
		out := make([]float64, 64)
		for step := 0; step < *n; step++ {
			k := 1 + (p.a+step*(rank+1)+total)%63
			before := spread(k, step)
			st := mpi.Sendrecv(c, buf[:k], (rank+1)%size, 0, out, (rank-1+size)%size, 0)
			add(st.Count + before%3)
			names[step%4] = fmt.Sprint(st.Count)
			// Collectives are called by all ranks: on values they share.
			if g := spread(step, *n); g%3 == 0 {
				c.Barrier()
			}
			// before is live across the MPI calls above.
			for j := 0; j < before%5; j++ {
				p = mix(p, j)
			}
			q := pair{p.b, p.a}
			p = q
		}
		sum := []float64{float64(total)}
		res := []float64{0}
		rounds := spread(*n, len(names)) % 4
		for r := 0; r < rounds; r++ {
			mpi.Allreduce(c, sum, res, mpi.Sum)
		}
		defer func() {
			if rank == 0 && total > 0 {
				fmt.Println("done", total, p.a)
			}
		}()
	})
}
