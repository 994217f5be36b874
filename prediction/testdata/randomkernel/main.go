// Command randomkernel computes -items work items of random sizes (from
// math/rand, which the interpreter does not evaluate), each by one of two
// kernels chosen through an interface; the ranks share the items
// cyclically. The kernels' loops run too fast per call to time, so their
// time is their call site's, charged per iteration of their loops, whose
// trip counts the interpreter cannot know
// (TestUnknownTripCountsOfKernels).
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand"

	"github.com/parpredict/parpredict/mpi"
)

type kernel interface{ area(n int) float64 }

type disc struct{ r float64 }

func (d disc) area(n int) float64 {
	h := 2 * d.r / float64(n)
	s := 0.0
	for i := 0; i < n; i++ {
		x := -d.r + (float64(i)+0.5)*h
		s += math.Sqrt(d.r*d.r - x*x)
	}
	return 2 * s * h
}

type box struct{ w, h float64 }

func (b box) area(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < 2; j++ {
			s += b.w * b.h / float64(2*n)
		}
	}
	return s
}

func main() {
	items := flag.Int("items", 300, "work items")
	size := flag.Int("size", 20000, "mean samples per item")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		rng := rand.New(rand.NewSource(1))
		sizes := make([]int, *items)
		for i := range sizes {
			sizes[i] = *size/2 + rng.Intn(*size)
		}
		c.BeginInterval(1)
		total := 0.0
		for k := c.Rank(); k < *items; k += c.Size() {
			var kr kernel = disc{r: float64(k%5 + 1)}
			if k%3 == 0 {
				kr = box{w: float64(k%7 + 1), h: 2}
			}
			total += kr.area(sizes[k])
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("total %.3f\n", total)
		}
	})
}
