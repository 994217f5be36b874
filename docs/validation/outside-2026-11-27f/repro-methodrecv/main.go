// repro-methodrecv: a reduced loop in a method of *part calls another
// method of *part (owner: it only reads, with loops of its own); then the
// program uses p.c for an Alltoall. radix -bits 16 failed this way:
// "mpi.Alltoall: the communicator is not known to the interpreter".
package main

import (
	"flag"
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

type part struct {
	c       *mpi.Comm
	n, size int
	cnt     []int
}

// owner is the rank whose block of n holds position g.
func (p *part) owner(g int) int {
	r := g * p.size / p.n
	for r > 0 && r*p.n/p.size > g {
		r--
	}
	for r < p.size-1 && (r+1)*p.n/p.size <= g {
		r++
	}
	return r
}

// span is a half-open range of positions.
type span struct{ lo, hi int }

func (s span) len() int { return s.hi - s.lo }

func (s span) cut(o span) span {
	c := span{max(s.lo, o.lo), min(s.hi, o.hi)}
	if c.hi < c.lo {
		c.hi = c.lo
	}
	return c
}

func (p *part) block(r int) span { return span{r * p.n / p.size, (r + 1) * p.n / p.size} }

// count splits each bucket's positions among the ranks that own them.
func (p *part) count(buckets int) {
	clear(p.cnt)
	for b := range buckets {
		seg := span{b * p.n / buckets, (b + 1) * p.n / buckets}
		for r := p.owner(seg.lo); seg.len() > 0; r++ {
			part := seg.cut(p.block(r))
			p.cnt[r] += part.len()
			seg.lo = part.hi
		}
	}
}

func main() {
	n := flag.Int("n", 1000000, "positions")
	buckets := flag.Int("buckets", 65536, "buckets")
	reps := flag.Int("reps", 20, "repetitions")
	flag.Parse()
	mpi.Main(func(c *mpi.Comm) {
		p := &part{c: c, n: *n, size: c.Size(), cnt: make([]int, c.Size())}
		recv := make([]int, c.Size())
		c.Barrier()
		t0 := mpi.Wtime()
		c.BeginInterval(1)
		for range *reps {
			p.count(*buckets)
			mpi.Alltoall(p.c, p.cnt, recv)
		}
		c.EndInterval(1)
		if c.Rank() == 0 {
			fmt.Printf("received %v\nelapsed: %.6f s\n", recv, mpi.Wtime()-t0)
		}
	})
}
