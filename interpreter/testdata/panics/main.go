// Command panics is interpreter test input: with -case NAME, rank 1 does
// what Go panics on at run time (rank 0 and -case safe do only what it
// does not), so that the evaluator must report the panic where the real
// program stops.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type point struct{ x, y int }

type shape interface{ area() int }

type square struct{ side int }

func (s square) area() int { return s.side * s.side }

func main() {
	which := flag.String("case", "safe", "what rank 1 does")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		if c.Rank() == 1 {
			run(*which, c.Size())
		} else {
			run("safe", c.Size())
		}
		c.Barrier()
	})
}

func run(which string, size int) {
	s := make([]int, 4, 8)
	var arr [3]int
	var p *point
	var m map[string]int
	var any interface{} = "text"
	var sh shape
	str := "abc"
	switch which {
	case "index":
		s[size+2] = 1 // want "index out of range [4] with length 4"
	case "array":
		arr[size+1]++ // want "index out of range [3] with length 3"
	case "string":
		_ = str[size+1] // want "index out of range [3] with length 3"
	case "slice":
		_ = s[size+1 : size] // want "slice bounds out of range [3:2]"
	case "nilptr":
		p.x = size // want "nil pointer dereference"
	case "nilmap":
		m["a"] = size // want "assignment to entry in nil map"
	case "assert":
		_ = any.(int) // want "interface conversion: interface {} is string, not int"
	case "nilassert":
		_ = sh.(square) // want "interface conversion: main.shape is nil, not main.square"
	case "div":
		_ = 10 / (size - 2) // want "integer divide by zero"
	case "makeslice":
		_ = make([]int, size-3) // want "makeslice: len out of range"
	case "call":
		panic(fmt.Sprintf("boom at %d ranks", size)) // want "boom at 2 ranks"
	case "exit":
		if err := check(size); err != nil {
			fmt.Fprintf(os.Stderr, "too many ranks: %d\n", size)
			os.Exit(3) // exits
		}
	case "safe":
		// What looks like the above and does not panic in Go.
		t := s[2:6] // beyond the length, within the capacity
		t[3] = size
		_, ok := any.(int)
		sh = square{size}
		_ = sh.(square).area()
		var q []int
		_ = q[:0]
		_ = ok
		_ = arr[size%3]
		_ = str[size%3:]
		var e1, e2 interface{} = size, size
		if e1 != e2 || check(1) != nil {
			panic("equal values compare unequal")
		}
	}
}

// check fails at more than one rank, with an error whose text the
// interpreter does not know.
func check(size int) error {
	if size > 1 {
		return fmt.Errorf("size %d: %w", size, errors.ErrUnsupported)
	}
	return nil
}
