// Command repro-fftloop: radix-2 butterfly loops over -rows rows of length
// -n, rows split over the ranks, the way an FFT is written:
//
//	for size := 2; size <= n; size <<= 1 {          // -form shift (default)
//	  for start := 0; start < n; start += size {
//	    for j := 0; j < size/2; j++ { ... }
//
// -form stage writes the outer loop over stage numbers instead:
//
//	for s := 1; s <= logn; s++ { size := 1 << s; ...
//
// -form flatpre is flat with logn counted in the rank's body before the
// rows loop (not captured from main).
//
// -form flatlocal is flat with logn counted in the rank's loop from len(x).
//
// -form flat counts the butterflies with ordinary loops:
//
//	for s := 0; s < logn; s++ { for b := 0; b < n/2; b++ { ... } }
package main

import (
	"flag"
	"fmt"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

func shift(x []float64, w []float64) {
	n := len(x)
	for size := 2; size <= n; size <<= 1 {
		half := size >> 1
		step := n / size
		for start := 0; start < n; start += size {
			for j := 0; j < half; j++ {
				a, b := x[start+j], w[j*step]*x[start+j+half]
				x[start+j], x[start+j+half] = a+b, a-b
			}
		}
	}
}

func stage(x []float64, w []float64, logn int) {
	n := len(x)
	for s := 1; s <= logn; s++ {
		size := 1 << s
		half := size >> 1
		step := n / size
		for start := 0; start < n; start += size {
			for j := 0; j < half; j++ {
				a, b := x[start+j], w[j*step]*x[start+j+half]
				x[start+j], x[start+j+half] = a+b, a-b
			}
		}
	}
}

func flat(x []float64, w []float64, logn int) {
	n := len(x)
	for s := 0; s < logn; s++ {
		half := 1 << s
		step := n >> (s + 1)
		for b := 0; b < n/2; b++ {
			j := b % half
			i := (b/half)*2*half + j
			a, c := x[i], w[j*step]*x[i+half]
			x[i], x[i+half] = a+c, a-c
		}
	}
}

func main() {
	n := flag.Int("n", 1024, "row length (a power of two)")
	rows := flag.Int("rows", 256, "rows")
	form := flag.String("form", "shift", "shift, stage or flat")
	flag.Bool("check", false, "unused")
	flag.Parse()
	logn := 0
	for 1<<logn < *n {
		logn++
	}
	mpi.Main(func(c *mpi.Comm) {
		lo, hi := c.Rank()**rows/c.Size(), (c.Rank()+1)**rows/c.Size()
		x := make([]float64, *n)
		w := make([]float64, *n/2)
		for j := range w {
			w[j] = math.Cos(float64(j))
		}
		lg := 0 // logn again, counted in the rank's body before its loop (-form flatpre)
		for 1<<lg < len(x) {
			lg++
		}
		sum := []float64{0}
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		for r := lo; r < hi; r++ {
			for i := range x {
				x[i] = float64(i%7 + r)
			}
			switch *form {
			case "stage":
				stage(x, w, logn)
			case "flat":
				flat(x, w, logn)
			case "flatpre":
				flat(x, w, lg)
			case "flatlocal": // logn counted here, from len(x)
				lg := 0
				for 1<<lg < len(x) {
					lg++
				}
				flat(x, w, lg)
			default:
				shift(x, w)
			}
			sum[0] += x[1]
		}
		tot := []float64{0}
		mpi.Allreduce(c, sum, tot, mpi.Sum)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("sum %g\nelapsed: %.6f s\n", tot[0], mpi.Wtime()-t0)
		}
	})
}
