// Command floyd computes all-pairs shortest paths of a random directed
// graph by Floyd-Warshall. The distance matrix's rows are split into
// contiguous blocks, one per rank; for every intermediate vertex k the
// rank holding row k broadcasts it, and every rank relaxes its own rows
// through k. With -check rank 0 gathers the matrix and compares it with a
// serial run.
//
//	go run . -np 4 -n 400 -check
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type params struct {
	n       int
	density float64
	seed    uint64
	check   bool
}

func main() {
	var p params
	flag.IntVar(&p.n, "n", 800, "vertices")
	flag.Float64Var(&p.density, "density", 0.1, "probability of each edge")
	flag.Uint64Var(&p.seed, "seed", 1, "seed of the graph")
	flag.BoolVar(&p.check, "check", false, "compare with a serial run on rank 0")
	flag.Parse()
	if p.n < 1 || p.density < 0 || p.density > 1 {
		fmt.Fprintln(os.Stderr, "floyd: -n must be at least 1 and -density in [0, 1]")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

// block is the range of rows [lo, hi) that a rank holds.
type block struct{ lo, hi int }

func blockOf(rank, size, n int) block {
	return block{rank * n / size, (rank + 1) * n / size}
}

// ownerOf returns the rank whose block holds row k.
func ownerOf(k, size, n int) int {
	r := (k*size + size - 1) / n
	for blockOf(r, size, n).lo > k {
		r--
	}
	for blockOf(r, size, n).hi <= k {
		r++
	}
	return r
}

// graphRow returns row i of the graph's distance matrix: 0 on the
// diagonal, a weight in [1, 100) for an edge, +Inf for none.
func graphRow(n, i int, density float64, seed uint64) []float64 {
	g := rand.New(rand.NewPCG(seed, uint64(i)))
	row := make([]float64, n)
	for j := range row {
		switch {
		case j == i:
			row[j] = 0
		case g.Float64() < density:
			row[j] = 1 + float64(g.IntN(99))
		default:
			row[j] = math.Inf(1)
		}
	}
	return row
}

func run(c *mpi.Comm, p params) {
	rank, size, n := c.Rank(), c.Size(), p.n
	mine := blockOf(rank, size, n)
	dist := make([][]float64, mine.hi-mine.lo)
	for i := range dist {
		dist[i] = graphRow(n, mine.lo+i, p.density, p.seed)
	}
	rowK := make([]float64, n)

	c.BeginInterval(1)
	for k := range n {
		owner := ownerOf(k, size, n)
		if owner == rank {
			copy(rowK, dist[k-mine.lo])
		}
		mpi.Bcast(c, rowK, owner)
		relax(dist, rowK, k)
	}
	c.EndInterval(1)

	// the checksum: sum of the finite distances and the count of pairs
	// without a path
	local := []float64{0, 0}
	for _, row := range dist {
		for _, d := range row {
			if math.IsInf(d, 1) {
				local[1]++
			} else {
				local[0] += d
			}
		}
	}
	total := make([]float64, 2)
	mpi.Reduce(c, local, total, mpi.Sum, 0)
	if rank == 0 {
		fmt.Printf("floyd: n=%d on %d ranks, sum of distances %.0f, %.0f pairs unreachable\n", n, size, total[0], total[1])
	}
	if p.check {
		checkAll(c, p, dist, mine)
	}
}

// relax lets every row of dist go through vertex k, whose row is rowK.
func relax(dist [][]float64, rowK []float64, k int) {
	for _, row := range dist {
		dik := row[k]
		if math.IsInf(dik, 1) {
			continue
		}
		for j, dkj := range rowK {
			if d := dik + dkj; d < row[j] {
				row[j] = d
			}
		}
	}
}

// checkAll gathers the matrix on rank 0 and compares it with a serial run.
func checkAll(c *mpi.Comm, p params, dist [][]float64, mine block) {
	n, size := p.n, c.Size()
	flat := make([]float64, 0, len(dist)*n)
	for _, row := range dist {
		flat = append(flat, row...)
	}
	var all []float64
	counts, displs := make([]int, size), make([]int, size)
	if c.Rank() == 0 {
		all = make([]float64, n*n)
		for r := range size {
			b := blockOf(r, size, n)
			counts[r], displs[r] = (b.hi-b.lo)*n, b.lo*n
		}
	}
	mpi.Gatherv(c, flat, all, counts, displs, 0)
	if c.Rank() != 0 {
		return
	}
	want := make([][]float64, n)
	for i := range want {
		want[i] = graphRow(n, i, p.density, p.seed)
	}
	for k := range n {
		relax(want, want[k], k)
	}
	bad := 0
	for i := range n {
		for j := range n {
			if all[i*n+j] != want[i][j] {
				bad++
			}
		}
	}
	if bad > 0 {
		fmt.Printf("floyd: check FAILED, %d of %d distances differ\n", bad, n*n)
		os.Exit(1)
	}
	fmt.Println("floyd: check ok")
}
