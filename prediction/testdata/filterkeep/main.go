// Command filterkeep: every step each rank keeps the values of its set
// that pass a test on data (all of them: every value is below the limit)
// in place, keep := s.items[:0] ... s.items = keep, and then works over
// what it kept. Predicted at another size than the profile's, the kept
// count follows the set's, not the profile's run.
package main

import (
	"flag"
	"math"

	"github.com/parpredict/parpredict/mpi"
)

// set is one rank's values.
type set struct{ items []float64 }

// filter keeps the values below limit, slightly shrunk.
func (s *set) filter(limit float64) {
	keep := s.items[:0]
	for _, v := range s.items {
		if v < limit {
			keep = append(keep, v*0.999)
		}
	}
	s.items = keep
}

// work sums the roots of the values.
func (s *set) work() float64 {
	sum := 0.0
	for _, v := range s.items {
		sum += math.Sqrt(v + 1)
	}
	return sum
}

func main() {
	n := flag.Int("n", 2000, "values per rank")
	steps := flag.Int("steps", 20, "steps")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		s := &set{items: make([]float64, *n)}
		for i := range s.items {
			s.items[i] = float64(i%100) / 100
		}
		local, global := []float64{0}, []float64{0}
		c.BeginInterval(1)
		for range *steps {
			s.filter(2)
			local[0] += s.work()
			mpi.Allreduce(c, local, global, mpi.Sum)
		}
		c.EndInterval(1)
	})
}
