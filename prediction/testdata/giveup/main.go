// Command giveup has loops whose results steer what follows (each is
// returned as an integer), some of which stay unknown once unknown
// (TestGiveUpResults): a sum, a conditional count and a sum over rows
// do, an arg-max, a sum reset to a constant and a count restarted for
// each row do not.
package main

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

// Sum stays unknown once an element is.
func Sum(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

// Count counts up from itself in both arms.
func Count(v []int) int {
	n := 0
	for i := 0; i < len(v); i++ {
		if v[i] > 0 {
			n++
		}
	}
	return n
}

// ArgMax takes the known index i in one arm.
func ArgMax(v []int) int {
	best, at := 0, -1
	for i, x := range v {
		if x > best {
			best, at = x, i
		}
	}
	return at + best
}

// Reset starts over from a constant in one arm.
func Reset(v []int) int {
	s := 0
	for _, x := range v {
		if x < 0 {
			s = 0
		} else {
			s += x
		}
	}
	return s
}

// SumRows adds up a board row by row: the outer loop's sum passes
// through the inner loop's, which starts from it and then from itself.
func SumRows(rows [][]int) int {
	s := 0
	for _, row := range rows {
		for _, x := range row {
			s += x
		}
	}
	return s
}

// RowMax keeps the largest row sum: each row's sum starts over from 0.
func RowMax(rows [][]int) int {
	m := 0
	for _, row := range rows {
		r := 0
		for _, x := range row {
			r += x
		}
		m = max(m, r)
	}
	return m
}

// Hits counts in a range over an int, whose test follows its body: the
// count left after the loop is what the header's phi takes back.
func Hits(v []int, n int) int {
	hits := 0
	for range n {
		if v[0] > 0 {
			hits++
		}
	}
	return hits
}

func main() {
	mpi.Main(func(c *mpi.Comm) {
		v := []int{1, -2, 3, c.Rank()}
		rows := [][]int{v, v}
		fmt.Println(Sum(v), Count(v), ArgMax(v), Reset(v), SumRows(rows), RowMax(rows), Hits(v, 3))
	})
}
