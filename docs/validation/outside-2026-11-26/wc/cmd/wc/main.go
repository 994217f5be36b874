// Command wc counts words of a generated text: each rank counts its lines,
// rank 0 merges the counts it gathers.
package main

import (
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/parpredict/parpredict/mpi"
)

var vocab = []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"}

func line(i int) string {
	var b strings.Builder
	x := uint32(i)*2654435761 + 1
	for w := 0; w < 40; w++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b.WriteString(vocab[x%uint32(len(vocab))])
		b.WriteByte(' ')
	}
	return b.String()
}

func main() {
	lines := flag.Int("lines", 20000, "lines of text")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		c.BeginInterval(1)
		counts := map[string]int{}
		for i := c.Rank(); i < *lines; i += c.Size() {
			for _, w := range strings.Fields(line(i)) {
				counts[w]++
			}
		}
		// Counts in vocabulary order, summed on rank 0.
		mine := make([]int, len(vocab))
		for k, w := range vocab {
			mine[k] = counts[w]
		}
		total := make([]int, len(vocab))
		mpi.Reduce(c, mine, total, mpi.Sum, 0)
		c.EndInterval(1)
		if c.Rank() == 0 {
			idx := make([]int, len(vocab))
			for i := range idx {
				idx[i] = i
			}
			sort.Slice(idx, func(a, b int) bool { return total[idx[a]] > total[idx[b]] })
			fmt.Println(vocab[idx[0]], total[idx[0]])
		}
	})
}
