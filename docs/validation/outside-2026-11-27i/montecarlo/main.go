// Command montecarlo estimates E[x^2] = 1 and P(|x| > 2) for the standard
// normal distribution by drawing samples with rejection sampling (a point
// uniform in [-4, 4] x [0, 1] is accepted under exp(-x^2/2), so a sample
// takes a varying number of tries). Each of -rounds rounds every rank draws
// its share of -n samples with its own generator (seeded by the rank), and
// bins them in a histogram. Rank 0 gets the sums and histograms with
// Reduce; the samples in the tails are "written" to a global event list in
// rank order: an Exscan of the ranks' event counts gives each rank its
// offset, and each event contributes its global index to a checksum that
// rank 0 gets with Reduce. With -check rank 0 repeats every rank's stream
// serially and compares.
//
//	go run . -np 4 -check
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/parpredict/parpredict/mpi"
)

type params struct {
	n, rounds, bins int
	seed            uint64
	check           bool
}

// rng is a xorshift64* generator.
type rng struct{ s uint64 }

func newRNG(seed uint64, rank int) *rng {
	r := &rng{s: seed*0x9E3779B97F4A7C15 + uint64(rank+1)*0xBF58476D1CE4E5B9}
	if r.s == 0 {
		r.s = 1
	}
	for range 4 {
		r.next()
	}
	return r
}

func (r *rng) next() uint64 {
	r.s ^= r.s >> 12
	r.s ^= r.s << 25
	r.s ^= r.s >> 27
	return r.s * 2685821657736338717
}

func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

const width = 4.0

// normal draws a standard normal sample by rejection; tries counts the draws.
func (r *rng) normal(tries *int64) float64 {
	for {
		*tries++
		x := width * (2*r.float() - 1)
		if r.float() < math.Exp(-x*x/2) {
			return x
		}
	}
}

// tally is what one rank accumulates in one round.
type tally struct {
	sum, sumsq float64
	tries      int64
	hist       []int64
	events     []float64 // samples with |x| > 2, in order
}

func (t *tally) reset() {
	t.sum, t.sumsq, t.tries = 0, 0, 0
	clear(t.hist)
	t.events = t.events[:0]
}

func (t *tally) add(x float64, bins int) {
	t.sum += x
	t.sumsq += x * x
	b := int((x + width) / (2 * width) * float64(bins))
	t.hist[min(max(b, 0), bins-1)]++
	if math.Abs(x) > 2 {
		t.events = append(t.events, x)
	}
}

// draw fills t with k samples from g.
func draw(g *rng, t *tally, k, bins int) {
	t.reset()
	for range k {
		t.add(g.normal(&t.tries), bins)
	}
}

// checksum is the contribution of the events numbered from offset on.
func checksum(events []float64, offset int64) float64 {
	var s float64
	for i, x := range events {
		s += float64(offset+int64(i)+1) * x
	}
	return s
}

func main() {
	var p params
	flag.IntVar(&p.n, "n", 400000, "samples per round, over all ranks")
	flag.IntVar(&p.rounds, "rounds", 8, "rounds")
	flag.IntVar(&p.bins, "bins", 64, "histogram bins over [-4, 4]")
	flag.Uint64Var(&p.seed, "seed", 42, "seed")
	flag.BoolVar(&p.check, "check", false, "repeat every rank's draws serially on rank 0 and compare")
	flag.Parse()
	if p.n < 1 || p.rounds < 1 || p.bins < 1 {
		fmt.Fprintln(os.Stderr, "montecarlo: need -n, -rounds, -bins >= 1")
		os.Exit(2)
	}
	mpi.Main(func(c *mpi.Comm) { run(c, p) })
}

// result is rank 0's record of one round.
type result struct {
	mean, second, tail float64
	tries              int64
	events             int64
	checksum           float64
	hist               []int64
}

func share(n, size, rank int) int { return (rank+1)*n/size - rank*n/size }

func run(c *mpi.Comm, p params) {
	rank, size := c.Rank(), c.Size()
	g := newRNG(p.seed, rank)
	t := &tally{hist: make([]int64, p.bins)}
	k := share(p.n, size, rank)
	sums := make([]float64, 3)
	sumsAll := make([]float64, 3)
	counts := make([]int64, 2)
	countsAll := make([]int64, 2)
	histAll := make([]int64, p.bins)
	nev, offset := []int64{0}, []int64{0}
	var results []result

	c.Barrier()
	t0 := mpi.Wtime()
	c.BeginInterval(1)
	for range p.rounds {
		draw(g, t, k, p.bins)
		nev[0] = int64(len(t.events))
		offset[0] = 0
		mpi.Exscan(c, nev, offset, mpi.Sum)
		sums[0], sums[1], sums[2] = t.sum, t.sumsq, checksum(t.events, offset[0])
		counts[0], counts[1] = t.tries, nev[0]
		mpi.Reduce(c, sums, sumsAll, mpi.Sum, 0)
		mpi.Reduce(c, counts, countsAll, mpi.Sum, 0)
		mpi.Reduce(c, t.hist, histAll, mpi.Sum, 0)
		if rank == 0 {
			results = append(results, result{
				mean: sumsAll[0] / float64(p.n), second: sumsAll[1] / float64(p.n),
				tail: float64(countsAll[1]) / float64(p.n), tries: countsAll[0],
				events: countsAll[1], checksum: sumsAll[2],
				hist: append([]int64(nil), histAll...),
			})
		}
	}
	c.EndInterval(1)
	elapsed := mpi.Wtime() - t0
	if rank != 0 {
		return
	}
	var second, tail float64
	var tries int64
	for _, r := range results {
		second += r.second / float64(p.rounds)
		tail += r.tail / float64(p.rounds)
		tries += r.tries
	}
	fmt.Printf("montecarlo: n=%d rounds=%d ranks=%d E[x^2]=%.5f P(|x|>2)=%.5f (exact %.5f) acceptance=%.4f\n",
		p.n, p.rounds, size, second, tail, math.Erfc(2/math.Sqrt2),
		float64(p.n*p.rounds)/float64(tries))
	if p.check {
		if err := checkSerial(p, size, results); err != nil {
			fmt.Fprintf(os.Stderr, "montecarlo: check failed: %v\n", err)
			c.Abort(1)
		}
		fmt.Println("check: every round equals the serial replay of the ranks' streams")
	}
	fmt.Printf("elapsed: %.6f s\n", elapsed)
}

// checkSerial replays the ranks' generators one after another.
func checkSerial(p params, size int, got []result) error {
	gens := make([]*rng, size)
	for r := range gens {
		gens[r] = newRNG(p.seed, r)
	}
	t := &tally{hist: make([]int64, p.bins)}
	for round, res := range got {
		var sum, sumsq, cs float64
		var tries, events int64
		hist := make([]int64, p.bins)
		for r := range size {
			draw(gens[r], t, share(p.n, size, r), p.bins)
			sum += t.sum
			sumsq += t.sumsq
			cs += checksum(t.events, events)
			tries += t.tries
			events += int64(len(t.events))
			for b, v := range t.hist {
				hist[b] += v
			}
		}
		close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
		switch {
		case tries != res.tries || events != res.events:
			return fmt.Errorf("round %d: tries/events %d/%d, serial %d/%d", round, res.tries, res.events, tries, events)
		case !close(sum/float64(p.n), res.mean) || !close(sumsq/float64(p.n), res.second) || !close(cs, res.checksum):
			return fmt.Errorf("round %d: sums differ from the serial ones", round)
		}
		for b := range hist {
			if hist[b] != res.hist[b] {
				return fmt.Errorf("round %d: bin %d has %d, serial %d", round, b, res.hist[b], hist[b])
			}
		}
	}
	return nil
}
