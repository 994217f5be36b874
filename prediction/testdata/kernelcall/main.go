// Command kernelcall is a test program whose heavy work is in a kernel
// called from a reduced loop: pairForce's loop runs over all of a rank's
// particles for each of them, so a rank's compute grows with the square
// of its particle count, which the prediction must follow when -n differs
// from the profile's.
package main

import (
	"flag"

	"github.com/parpredict/parpredict/mpi"
)

func pairForce(ps []float64, i int) float64 {
	f := 0.0
	for j := range ps {
		d := ps[j] - ps[i]
		f += d / (d*d + 1)
	}
	return f
}

// forces fills acc: the nest's count of pairForce's iterations is the
// length of the slice it is given, which the interpreter binds.
func forces(ps, acc []float64) {
	for i := range ps {
		acc[i] = pairForce(ps, i)
	}
}

func main() {
	n := flag.Int("n", 400, "particles")
	steps := flag.Int("steps", 3, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		per := *n / c.Size()
		ps := make([]float64, per)
		acc := make([]float64, per)
		for i := range ps {
			ps[i] = float64(c.Rank()*per + i)
		}
		sum, total := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for s := 0; s < *steps; s++ {
			forces(ps, acc)
			for i := range ps {
				ps[i] += 1e-3 * acc[i]
				sum[0] += acc[i]
			}
			mpi.Allreduce(c, sum, total, mpi.Sum)
		}
		c.EndInterval(1)
	})
}
