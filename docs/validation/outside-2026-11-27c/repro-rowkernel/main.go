// Command repro-rowkernel: a quadratic row kernel (a method on a struct
// holding n) applied to each of n rows, once with the index wrapped by a
// compare-and-subtract (-wrap, as transpose2d's DFT) and once with j*k%n.
// Profiled at a small -n and predicted at a larger one, the time should
// grow as n^3.
//
//	predict speedup . --np 1 --profile-args "-n 128" -- -n 256
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type kern struct {
	n   int
	tw  []float64
	out []float64
}

func (d *kern) rowWrap(x []float64) {
	n := d.n
	for k := range n {
		s, m := 0.0, 0
		for j := range n {
			s += x[j] * d.tw[m]
			m += k
			if m >= n {
				m -= n
			}
		}
		d.out[k] = s
	}
	copy(x, d.out)
}

func (d *kern) rowMod(x []float64) {
	n := d.n
	for k := range n {
		s := 0.0
		for j := range n {
			s += x[j] * d.tw[j*k%n]
		}
		d.out[k] = s
	}
	copy(x, d.out)
}

func main() {
	n := flag.Int("n", 256, "size")
	wrap := flag.Bool("wrap", true, "wrap the index as transpose2d does")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		d := &kern{n: *n, tw: make([]float64, *n), out: make([]float64, *n)}
		for i := range d.tw {
			d.tw[i] = 1 / float64(i+1)
		}
		a := make([]float64, *n**n)
		for i := range a {
			a[i] = float64(i % 7)
		}
		c.BeginInterval(1)
		for i := range *n {
			if *wrap {
				d.rowWrap(a[i**n : (i+1)**n])
			} else {
				d.rowMod(a[i**n : (i+1)**n])
			}
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println(a[0])
		}
	})
}
