// Command rectnests is profiler test input: loop nests whose inner loops
// run once per iteration of the loop around them with the same trip count
// (rectangular: recorded at the outer loop's exit in the counting
// binary), and nests that are not.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

func main() {
	n := flag.Int("n", 6, "outer iterations")
	m := flag.Int("m", 5, "inner bound")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		row := make([]int, *m)
		fmt.Println(rect(*n, *m), ranged(*n, row), cube(*n, *m), rect(0, *m),
			triangular(*n), shrinking(*n, *m), guarded(*n, *m), continuing(*n, *m), calling(*n, *m))
	})
}

// rect: the inner loop runs m-2 times per outer iteration; its then arm
// is data-dependent.
func rect(n, m int) int {
	s := 0
	for i := 0; i < n; i++ {
		for j := 1; j < m-1; j++ {
			if (i+j)%3 == 0 {
				s++
			}
		}
	}
	return s
}

// ranged: inner loops over a slice and an integer, neither changed.
func ranged(n int, row []int) int {
	s := 0
	for i := range n {
		for k := range row {
			s += k + i
		}
		for range len(row) + 1 {
			s++
		}
	}
	return s
}

// cube: three levels, each rectangular in the one around it.
func cube(n, m int) int {
	s := 0
	for i := 0; i < n; i++ {
		for b := 0; b < m; b++ {
			for c := 0; c <= 2; c++ {
				s += i * b * c
			}
		}
	}
	return s
}

// triangular: the inner bound starts at the outer index.
func triangular(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s++
		}
	}
	return s
}

// shrinking: the outer body changes the inner bound.
func shrinking(n, m int) int {
	s := 0
	for i := 0; i < n; i++ {
		for a := 0; a < m; a++ {
			s++
		}
		m--
	}
	return s
}

// guarded: the inner loop runs on even outer iterations only.
func guarded(n, m int) int {
	s := 0
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			for g := 0; g < m; g++ {
				s++
			}
		}
	}
	return s
}

// continuing: the outer loop skips the inner one when i is 1.
func continuing(n, m int) int {
	s := 0
	for i := 0; i < n; i++ {
		if i == 1 {
			continue
		}
		for q := 0; q < m; q++ {
			s++
		}
	}
	return s
}

// calling: the outer body calls a function, which could change anything.
func calling(n, m int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += bump(&m)
		for w := 0; w < m; w++ {
			s++
		}
	}
	return s
}

func bump(m *int) int { *m++; return *m }
