// Command farm is a master-worker task farm: rank 0 hands out -n tasks of
// uneven cost one at a time to the workers (ranks 1..P-1), which send back a
// result each; the master receives results from any source and answers the
// sender with its next task (tag work) or, when none is left, tag stop. A
// task t integrates a damped oscillation with cost(t) steps; cost is
// heavy-tailed: most tasks are cheap, every 17th is 20 times as dear.
//
// With one rank the master does every task itself.
//
//	go run . -np 4 -n 2000
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

const (
	tagWork   = 1
	tagStop   = 2
	tagResult = 3
)

func main() {
	n := flag.Int("n", 2000, "number of tasks")
	base := flag.Int("base", 10000, "steps of a cheap task")
	check := flag.Bool("check", true, "compare the sum with a serial run on rank 0")
	flag.Parse()
	if *n < 1 || *base < 1 {
		fmt.Fprintln(os.Stderr, "farm: -n and -base must be positive")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, *n, *base, *check) })
}

// cost is the number of integration steps of task t.
func cost(t, base int) int {
	if t%17 == 0 {
		return 20 * base
	}
	return base + (t*7919)%base
}

// task integrates the damped oscillator a = -x - 0.1 v from x = 1 + t/n with
// cost(t) steps and returns the final position.
func task(t, n, base int) float64 {
	steps := cost(t, base)
	x, v := 1+float64(t)/float64(n), 0.0
	h := 1e-3
	for s := 0; s < steps; s++ {
		a := -x - 0.1*v
		v += h * a
		x += h * v
	}
	return x
}

func run(c *mpi.Comm, n, base int, check bool) {
	rank, size := c.Rank(), c.Size()
	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	sum := 0.0
	done := make([]int, size)
	if size == 1 {
		for t := 0; t < n; t++ {
			sum += task(t, n, base)
		}
	} else if rank == 0 {
		sum = master(c, n, done)
	} else {
		worker(c, n, base)
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0
	if rank != 0 {
		return
	}
	fmt.Printf("farm: n=%d ranks=%d sum=%.12f tasks per worker=%v\n", n, size, sum, done[1:])
	if check {
		want := 0.0
		for t := 0; t < n; t++ {
			want += task(t, n, base)
		}
		if math.Abs(want-sum) > 1e-9*math.Abs(want) {
			fmt.Fprintf(os.Stderr, "farm: check failed: %.15g, serial %.15g\n", sum, want)
			c.Abort(1)
		}
		fmt.Println("check: sum equals the serial sum")
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

// master hands out tasks 0..n-1 and collects their results.
func master(c *mpi.Comm, n int, done []int) float64 {
	size := c.Size()
	next := 0
	msg := []int64{0}
	// prime every worker with one task (or stop it if there are none)
	for w := 1; w < size; w++ {
		if next < n {
			msg[0] = int64(next)
			mpi.Send(c, msg, w, tagWork)
			next++
		} else {
			mpi.Send(c, msg, w, tagStop)
		}
	}
	sum := 0.0
	res := []float64{0, 0} // task id, value
	for received := 0; received < n; received++ {
		st := mpi.Recv(c, res, mpi.AnySource, tagResult)
		sum += res[1]
		done[st.Source]++
		if next < n {
			msg[0] = int64(next)
			mpi.Send(c, msg, st.Source, tagWork)
			next++
		} else {
			mpi.Send(c, msg, st.Source, tagStop)
		}
	}
	return sum
}

// worker runs tasks until told to stop.
func worker(c *mpi.Comm, n, base int) {
	msg := []int64{0}
	res := []float64{0, 0}
	for {
		st := mpi.Recv(c, msg, 0, mpi.AnyTag)
		if st.Tag == tagStop {
			return
		}
		t := int(msg[0])
		res[0], res[1] = float64(t), task(t, n, base)
		mpi.Send(c, res, 0, tagResult)
	}
}
