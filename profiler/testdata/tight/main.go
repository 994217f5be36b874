// Command tight is a test program for the profiler's tight loops: loop
// nests that make no call, which the timing binary must time only from
// outside, next to loops that call something.
package main

import (
	"fmt"
	"math"
)

func main() {
	const n = 64
	a := make([]float64, n*n)
	for i := range a {
		a[i] = float64(i % 7)
	}
	s := nest(a, n)
	r := roots(a)
	c := calls(a)
	g := grows(a)
	scale(a, 0.5)
	scale(a[:n], 2)
	w := rows(a, n)
	fmt.Println(s, r, c, g, w, a[0])
}

// nest is a tight i, j nest: conversions and builtins only.
func nest(a []float64, n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s += a[i*n+j] * float64(min(i, j))
		}
	}
	return s
}

// roots is tight too: math.Sqrt is an instruction.
func roots(a []float64) float64 {
	s := 0.0
	for _, x := range a {
		s += math.Sqrt(x)
	}
	return s
}

// calls calls a function of the program in its inner loop: not tight.
func calls(a []float64) float64 {
	s := 0.0
	for i := 0; i < 8; i++ {
		for j := range a {
			s += half(a[j])
		}
	}
	return s
}

//go:noinline
func half(x float64) float64 { return x / 2 }

// grows appends: a runtime call, not tight.
func grows(a []float64) int {
	var out []float64
	for _, x := range a {
		if x > 3 {
			out = append(out, x)
		}
	}
	return len(out)
}

// scale is a kernel: a loop over the slice it is given.
func scale(x []float64, f float64) {
	for i := range x {
		x[i] *= f
	}
}

// rows calls a kernel with a loop of its own once per row: the work of an
// iteration of its loop is the kernel's.
func rows(a []float64, n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += rowSum(a[i*n : (i+1)*n])
	}
	return s
}

func rowSum(r []float64) float64 {
	s := 0.0
	for _, v := range r {
		s += v
	}
	return s
}
