// Command qsortkernel sorts each rank's share of -n pseudo-random numbers
// with a recursive quicksort, whose partition loops stop on the data: the
// interpreter runs them on values it does not know, their exits taken at
// the profile's rates (TestDataDependentKernelScales).
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

// qsort sorts a in place (Hoare's partition around the middle element).
func qsort(a []float64) {
	if len(a) < 2 {
		return
	}
	p := a[len(a)/2]
	i, j := 0, len(a)-1
	for i <= j {
		for a[i] < p {
			i++
		}
		for a[j] > p {
			j--
		}
		if i <= j {
			a[i], a[j] = a[j], a[i]
			i++
			j--
		}
	}
	qsort(a[:j+1])
	qsort(a[i:])
}

func main() {
	n := flag.Int("n", 40000, "numbers in all")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		m := *n / c.Size()
		xs := make([]float64, m)
		seed := uint64(c.Rank()) + 1
		for i := range xs {
			seed = seed*6364136223846793005 + 1442695040888963407
			xs[i] = float64(seed>>11) / (1 << 53)
		}
		c.BeginInterval(1)
		qsort(xs)
		c.EndInterval(1)
		med := []float64{xs[m/2]}
		sum := []float64{0}
		mpi.Allreduce(c, med, sum, mpi.Sum)
		if c.Rank() == 0 {
			fmt.Printf("mean of the medians: %.3f\n", sum[0]/float64(c.Size()))
		}
	})
}
