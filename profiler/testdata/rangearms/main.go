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
		fmt.Println(a, b, e, d, f, g, from(*k, *n))
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
