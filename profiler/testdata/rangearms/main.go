// Command rangearms is profiler test input: then arms that test a loop's
// induction variable, which the counting binary counts at the loop's
// exit, and one it must count per iteration.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 10, "iterations")
	k := flag.Int("k", 4, "a bound the loop does not change")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		a, b, e, d, f, g := arms(*n, *k)
		x, y, z := moving(*n)
		fmt.Println(a, b, e, d, f, g, from(*k, *n), x, y, z)
	})
}

// arms counts, for j = 0 .. n-1, the js above 2, those at most k, the one
// equal to 5, the even ones, those not 3 and those below k-1.
func arms(n, k int) (a, b, e, d, f, g int) {
	for j := 0; j < n; j++ {
		if j > 2 {
			a++
		}
		if k >= j {
			b++
		}
		if j == 5 {
			e++
		}
		if j%2 == 0 {
			d++
		}
		if j != 3 {
			f++
		}
		if j < k-1 {
			g++
		}
	}
	return
}

// from counts the js from lo to hi inclusive that are at least hi-2.
func from(lo, hi int) int {
	s := 0
	for j := lo; j <= hi; j++ {
		if j >= hi-2 {
			s++
		}
	}
	return s
}

// limit is package-level: a then arm comparing with it is counted per
// iteration (a call could change it).
var limit = 3

// moving compares j with values that change during the loop or are
// declared in it: each of its arms is counted at every execution. For n
// = 10: j < m holds for j = 0 .. 3 and, once m is 9, for j = 8 (5); j <
// limit for 0 .. 2 (3); j < k (the k of the body) for 0 .. 6 (7).
func moving(n int) (x, y, z int) {
	m, k := 4, 2
	p := &m
	for j := 0; j < n; j++ {
		if j == 7 {
			*p = 9
		}
		if j < m {
			x++
		}
		if j < limit {
			y++
		}
		k := 7
		if j < k {
			z++
		}
	}
	return x + k - k, y, z
}
