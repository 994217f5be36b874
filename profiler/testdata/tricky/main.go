// Command tricky exercises the instrumenter on the control flow that text
// insertion must get right: returns and labelled branches out of loops,
// else-if chains, switches and selects, infinite loops, goto, closures,
// methods, os.Exit. It prints a checksum that must not change when
// instrumented.
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/parpredict/parpredict/mpi"
)

type acc struct{ n int }

func (a *acc) add(v int) { a.n += v }

func (a acc) String() string { return fmt.Sprint(a.n) }

func find(xs []int, want int) int {
	for i, x := range xs {
		if x == want {
			return i
		}
	}
	return -1
}

type flag bool

// scan has compound loop conditions, whose tests get counters: one with a
// return and a labelled break inside, one whose test has a named boolean
// type (not counted: the probe takes a bool).
func scan(xs []int, limit int) int {
	i, s := 0, 0
loop:
	for i < len(xs) && (xs[i] >= 0 || !(s > limit)) {
		switch {
		case xs[i] == 99:
			return -s
		case xs[i] == 42:
			break loop
		}
		s += xs[i]
		i++
	}
	var done flag
	for !done && s < 1000 {
		s *= 2
		done = s > 500
	}
	return s
}

func grid(n int) (s int) {
outer:
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			switch {
			case j > i:
				continue outer
			case i*j > 20:
				break outer
			}
			s += i * j
		}
	}
	return s
}

func forever(n int) int {
	i := 0
	for {
		i++
		if i >= n {
			return i
		}
	}
}

func jumps(n int) int {
	s := 0
	i := 0
loop:
	if i < n {
		s += i
		i++
		goto loop
	}
	x := strings.Repeat("a", n)
	return s + len(x)
}

func classify(v int) string {
	if v < 0 {
		return "neg"
	} else if v == 0 {
		return "zero"
	} else if v < 10 {
		return "small"
	}
	return "big"
}

func chans(n int) int {
	ch := make(chan int, n)
	for i := 0; i < n; i++ {
		ch <- i
	}
	close(ch)
	s := 0
	for {
		select {
		case v, ok := <-ch:
			if !ok {
				return s
			}
			s += v
		}
	}
}

type vec []int

func (v vec) scaled(k int) vec {
	out := make(vec, len(v))
	for i, x := range v {
		out[i] = k * x
	}
	return out
}

func (v vec) sum() int { return sumOf(v) }

func sumOf[T ~int](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func positive(v int) bool { return v > 0 }

// exprs calls functions inside expressions, where each call is timed in
// place: in conditions, operands, a method chain, a return, a switch tag,
// behind && and through a function value.
func exprs(n int) int {
	v := vec{1, 2, 3}
	sq := func(x int) int { return x * x }
	s := 0
	for i := 0; i < sumOf(v)+n; i++ {
		if positive(i) && classify(i) == "small" {
			s += sq(i) + v.scaled(i).sum()
		}
	}
	switch classify(s) {
	case "big":
		s += find([]int{s}, s)
	}
	defer func(x int) { s += x }(sq(2))
	return s + sq(forever(3))
}

func divmod(a, b int) (int, int) { return a / b, a % b }

// split returns a call of several results, inside a loop and after it,
// and a call of one result from inside a loop.
func split(xs []int) (int, int) {
	for i, x := range xs {
		if x < 0 {
			return divmod(-x, i+1)
		}
		if x == 7 {
			return sumOf(xs[:i]), i
		}
	}
	return divmod(sumOf(xs), 3)
}

func main() {
	if len(os.Args) > 5 {
		fmt.Println("too many arguments")
		os.Exit(2)
	}
	a := &acc{}
	xs := []int{5, 3, 9, 1}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	a.add(find(xs, 9))
	a.add(grid(10))
	a.add(scan([]int{1, -2, 3, 42, 5}, 10))
	a.add(scan([]int{4, 99}, 10))
	a.add(forever(7))
	a.add(jumps(5))
	a.add(chans(6))
	a.add(exprs(4))
	for _, xs := range [][]int{{1, 2, -9}, {3, 7}, {4, 5}} {
		q, r := split(xs)
		a.add(q*10 + r)
	}
	f := a.add
	f(1)
	words := []string{}
	for _, v := range []int{-1, 0, 5, 50} {
		words = append(words, classify(v))
	}
	mpi.Main(func(c *mpi.Comm) {
		local := []float64{float64(c.Rank() + 1)}
		total := make([]float64, 1)
		mpi.Allreduce(c, local, total, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Println(a, strings.Join(words, ","), total[0])
		}
	})
}
