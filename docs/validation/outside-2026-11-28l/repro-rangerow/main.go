// Repro: a loop over a rank's rows (count len(d.x)/d.dim, known: it
// depends on rank and size) whose inner loop ranges over the row it cuts,
// row := d.x[i*d.dim:(i+1)*d.dim]; for _, v := range row, is costed as if
// the outer count were unknown: "its count needs ..., which the rank does
// not know; taken as N" with N the profiled P = 1 count, at every P, so the
// prediction does not scale. With -index the inner loop is
// for j := 0; j < d.dim; j++ { v := row[j] ... } and the prediction scales.
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

type data struct {
	dim int
	x   []float64
}

func (d *data) rows() int { return len(d.x) / d.dim }

func (d *data) sumRange() float64 {
	s := 0.0
	for i := 0; i < d.rows(); i++ {
		row := d.x[i*d.dim : (i+1)*d.dim]
		for _, v := range row {
			s += math.Sqrt(v)
		}
	}
	return s
}

func (d *data) sumIndex() float64 {
	s := 0.0
	for i := 0; i < d.rows(); i++ {
		row := d.x[i*d.dim : (i+1)*d.dim]
		for j := 0; j < d.dim; j++ {
			s += math.Sqrt(row[j])
		}
	}
	return s
}

func main() {
	n := flag.Int("n", 100000, "rows")
	dim := flag.Int("dim", 8, "row length")
	reps := flag.Int("reps", 10, "sweeps")
	index := flag.Bool("index", false, "index the inner loop instead of ranging over the row")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		lo, hi := c.Rank()**n/c.Size(), (c.Rank()+1)**n/c.Size()
		d := &data{dim: *dim, x: make([]float64, (hi-lo)**dim)}
		for i := range d.x {
			d.x[i] = float64(i%97) + 1
		}
		in, out := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for r := 0; r < *reps; r++ {
			if *index {
				in[0] = d.sumIndex()
			} else {
				in[0] = d.sumRange()
			}
			mpi.Allreduce(c, in, out, mpi.Sum)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("sum %.6g\n", out[0])
		}
	})
}
