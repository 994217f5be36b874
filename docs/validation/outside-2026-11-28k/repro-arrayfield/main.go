// repro-arrayfield: lbm's stream in small. A method sweeps an array of
// slices field (f [4][]float64) into another (tmp) and then swaps the two
// arrays (g.f, g.tmp = g.tmp, g.f). With the swap (-swap, sweepSwap) the
// tool loses g.rows: the nest's count is "taken at the profile's mean
// trips per entry" at every P, and so is the next nest that needs g.rows.
// Without the swap (sweep) it predicts well. lbm2, with f, tmp [][]float64,
// predicts well too.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type grid struct {
	rows   int
	f, tmp [4][]float64
}

func (g *grid) sweep() {
	for k := range 4 {
		src, dst := g.f[k], g.tmp[k]
		for j := 0; j < g.rows; j++ {
			dst[j] = src[j]*0.5 + float64(j+k)
		}
	}
}

func (g *grid) sweepSwap() {
	g.sweep()
	g.f, g.tmp = g.tmp, g.f
}

func main() {
	n := flag.Int("n", 200000, "total rows")
	steps := flag.Int("steps", 300, "sweeps")
	swap := flag.Bool("swap", false, "swap the arrays after each sweep")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		g := &grid{rows: *n / c.Size()}
		for k := range 4 {
			g.f[k] = make([]float64, g.rows)
			g.tmp[k] = make([]float64, g.rows)
		}
		g.sweep()
		out := make([]float64, 1)
		c.BeginInterval(1)
		for range *steps {
			if *swap {
				g.sweepSwap()
			} else {
				g.sweep()
			}
		}
		mpi.Allreduce(c, []float64{g.f[0][0]}, out, mpi.Sum)
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Println("sum", out[0])
		}
	})
}
