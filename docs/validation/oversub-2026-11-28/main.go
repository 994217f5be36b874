// Command oversub measures what time-sharing costs ranks that work on
// memory: every rank does the same compute per step, either integer
// arithmetic (-kind int, as predict bench's lockstep suite does) or a
// five-point stencil sweep over its share of a rows x n grid (-kind mem,
// as heat does), then a halo exchange (-pat ring: both ring neighbours;
// -pat chain: heat's two phases) and a one-number Allreduce. The fastest
// of 5 runs of -steps steps is printed. -sweeps repeats the sweep over a
// smaller grid, keeping the work per step and shrinking the footprint.
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

var sink uint64

func work(n int) {
	x := sink | 1
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	sink = x
}

func mem(u, v []float64, rows, n int) {
	for i := 1; i <= rows; i++ {
		for j := 1; j < n-1; j++ {
			v[i*n+j] = 0.25 * (u[(i-1)*n+j] + u[(i+1)*n+j] + u[i*n+j-1] + u[i*n+j+1])
		}
	}
}

func main() {
	total := flag.Int("rows", 256, "total rows")
	n := flag.Int("n", 256, "cols")
	steps := flag.Int("steps", 2000, "steps")
	kind := flag.String("kind", "mem", "mem or int")
	sweeps := flag.Int("sweeps", 1, "sweeps per step")
	pat := flag.String("pat", "chain", "chain or ring")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		k, r := c.Size(), c.Rank()
		rows := *total / k
		u, v := make([]float64, (rows+2)**n), make([]float64, (rows+2)**n)
		// integer rounds: about the stencil sweep's time on this VM
		iters := rows * (*n) * (*sweeps)
		local, global := []float64{1}, []float64{0}
		row, row2 := make([]float64, *n), make([]float64, *n)
		step := func() {
			if *kind == "mem" {
				for range *sweeps {
					mem(u, v, rows, *n)
					u, v = v, u
				}
			} else {
				work(iters)
			}
			if *pat == "ring" {
				next, prev := (r+1)%k, (r+k-1)%k
				mpi.Sendrecv(c, row, next, 1, row2, prev, 1)
				mpi.Sendrecv(c, row, prev, 1, row2, next, 1)
			} else {
				for phase := 0; phase < 2; phase++ {
					if (r+phase)%2 == 0 {
						if r+1 < k {
							mpi.Sendrecv(c, row, r+1, 1, row2, r+1, 2)
						}
					} else if r > 0 {
						mpi.Sendrecv(c, row, r-1, 2, row2, r-1, 1)
					}
				}
			}
			mpi.Allreduce(c, local, global, mpi.Max)
		}
		best := 1e9
		for rep := 0; rep < 5; rep++ {
			c.Barrier()
			t0 := mpi.Wtime()
			for s := 0; s < *steps; s++ {
				step()
			}
			c.Barrier()
			t := []float64{mpi.Wtime() - t0}
			mpi.Bcast(c, t, 0)
			best = min(best, t[0])
		}
		if r == 0 {
			fmt.Printf("np=%d kind=%s pat=%s best=%.4f\n", k, *kind, *pat, best)
		}
	})
}
