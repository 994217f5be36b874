package bench

import (
	"fmt"
	"slices"
	"time"

	"github.com/parpredict/parpredict/mpi"
)

// noiseSeconds is how long each rank reads the clock: long enough for a
// few hundred detours on a quiet machine, and for the rare long ones to
// show (a daemon's milliseconds).
const noiseSeconds = 1.0

// noiseMinThreshold is the shortest gap counted as a detour, whatever the
// clock's speed: shorter gaps are cache and TLB misses of the loop itself.
const noiseMinThreshold = 2e-6

// noiseBins is the size of the machine file's detour table.
const noiseBins = 64

// noiseKeep bounds the detours a rank sends to rank 0 (its count is
// exact; the durations are the first noiseKeep).
const noiseKeep = 100_000

// noiseSuite measures the detours that interrupt computation: every rank
// of the node reads the clock in a loop for noiseSeconds, all at once (as
// a program's ranks compute at once), and records each gap between two
// reads longer than the threshold (50 times the loop's median step, at
// least noiseMinThreshold): the time the rank lost to the operating
// system, other processes or the hypervisor ("selfish detour", Beckman et
// al.). One row: the detours of all ranks, with their rate per rank and
// second and a table of their durations (binMeans).
func noiseSuite(c *mpi.Comm, _ *Clock, _ float64, o Options, progress func(string)) []Row {
	threshold := max(noiseMinThreshold, 50*clockStep())
	c.Barrier()
	gaps, n := selfishDetour(noiseSeconds, threshold)
	// Rank 0 gets every rank's count and durations (selfishDetour kept
	// at most noiseKeep of them); the counts are only rank 0's to use.
	counts := make([]int, 2*c.Size())
	mpi.Gather(c, []int{n, len(gaps)}, counts, 0)
	kept := make([]int, c.Size())
	displs := make([]int, c.Size())
	total, all := 0, 0
	for r := range c.Size() {
		kept[r], displs[r] = counts[2*r+1], all
		total += counts[2*r]
		all += kept[r]
	}
	var every []float64
	if c.Rank() == 0 {
		every = make([]float64, all)
	}
	mpi.Gatherv(c, gaps, every, kept, displs, 0)
	if c.Rank() != 0 {
		return nil
	}
	defer progress(fmt.Sprintf("noise ranks=%d", c.Size()))
	r := Row{Kind: "noise", Label: "Detours", Ranks: c.Size(), Threshold: threshold,
		Rate:  float64(total) / (noiseSeconds * float64(c.Size())),
		Stats: Summarise(every, total, 0)}
	if len(every) > 0 {
		r.Detours = binMeans(every, noiseBins)
	}
	return []Row{r}
}

// selfishDetour reads the clock for d seconds and returns the gaps between
// consecutive reads longer than threshold (seconds), and how many there
// were.
func selfishDetour(d, threshold float64) ([]float64, int) {
	// Allocated up front: a collection started by the loop would be
	// measured as a detour.
	gaps := make([]float64, 0, noiseKeep)
	n := 0
	start := time.Now()
	last := start
	limit := time.Duration(d * 1e9)
	th := time.Duration(threshold * 1e9)
	for {
		now := time.Now()
		if g := now.Sub(last); g > th {
			n++
			if len(gaps) < noiseKeep {
				gaps = append(gaps, g.Seconds())
			}
		}
		last = now
		if now.Sub(start) >= limit {
			return gaps, n
		}
	}
}

// clockStep is the median time between two consecutive clock reads.
func clockStep() float64 {
	const n = 10_001
	steps := make([]float64, 0, n-1)
	last := time.Now()
	for range n - 1 {
		now := time.Now()
		steps = append(steps, now.Sub(last).Seconds())
		last = now
	}
	slices.Sort(steps)
	return steps[len(steps)/2]
}

// binMeans sorts v, cuts it into n bins of equal count (as equal as the
// length allows) and returns each bin's mean: a table of the distribution
// whose mean is v's, the rare long values included (a quantile table
// would leave out the longest detours, which weigh most).
func binMeans(v []float64, n int) []float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n = min(n, len(s))
	out := make([]float64, n)
	for i := range out {
		lo, hi := i*len(s)/n, (i+1)*len(s)/n
		sum := 0.0
		for _, x := range s[lo:hi] {
			sum += x
		}
		out[i] = sum / float64(hi-lo)
	}
	return out
}
