// Command countlast: after the timed interval, rank 0 counts the clear bits of
// a bitset that a reduced nest filled (so the interpreter does not know the
// bits) and compares the count with a reduced result. The count loop is not
// reduced ("its result c is returned as an integer") and runs step by step,
// n iterations of unknown data, though its result cannot become known.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

// mark sets the bit of every multiple of 3 below n.
func mark(bits []uint64, n int) {
	for j := 0; j < n; j += 3 {
		bits[j/64] |= 1 << (uint(j) % 64)
	}
}

// clear counts the clear bits below n.
func clear(bits []uint64, n int) int {
	c := 0
	for i := 0; i < n; i++ {
		if bits[i/64]>>(uint(i)%64)&1 == 0 {
			c++
		}
	}
	return c
}

// clearLast counts the clear bits below n as clear does, and also returns
// the last clear bit: the loop's result last is the counter's value at the
// last clear bit.
func clearLast(bits []uint64, n int) (c, last int) {
	for i := 0; i < n; i++ {
		if bits[i/64]>>(uint(i)%64)&1 == 0 {
			c++
			last = i
		}
	}
	return c, last
}

func main() {
	n := flag.Int("n", 30000000, "bits")
	check := flag.Bool("check", true, "count on rank 0")
	withLast := flag.Bool("last", false, "count with clearLast")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		local, total := []int64{int64(c.Rank())}, []int64{0}
		c.BeginInterval(1)
		mpi.Allreduce(c, local, total, mpi.Sum)
		c.EndInterval(1)
		if c.Rank() == 0 && *check {
			bits := make([]uint64, *n/64+1)
			mark(bits, *n)
			got := 0
			if *withLast {
				got, _ = clearLast(bits, *n)
			} else {
				got = clear(bits, *n)
			}
			if got != *n-(*n+2)/3 {
				fmt.Println("check failed", got)
			}
		}
	})
}
