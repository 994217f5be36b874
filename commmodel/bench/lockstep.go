package bench

import (
	"fmt"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

const tagLockstep = tagIdle + 1

// lockstepComputes are the compute times between exchanges that the
// lockstep suite measures, in seconds; 0 gives the exchange's own cost.
var lockstepComputes = []float64{0, 30e-6, 100e-6, 300e-6, 1e-3, 3e-3, 10e-3}

// lockstepRanks are the rank counts of the lockstep suite: 2, and the
// cores, as far as the run has ranks on rank 0's host (hosts lists the
// run's ranks' hosts). More ranks than cores are not measured: a ring of
// them stalls on whichever rank waits for a core, which the programs we
// validated against (halo exchanges with reductions) do not; the
// prediction shares the cores among the busy ranks there.
func lockstepRanks(hosts []uint64, cores int) []int {
	n := 0
	for n < len(hosts) && hosts[n] == hosts[0] {
		n++
	}
	var ks []int
	for _, k := range []int{2, min(n, cores)} {
		if k >= 2 && k <= n && !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	return ks
}

// lockstepSuite measures how many cores ranks that synchronise in lockstep
// effectively get: every rank computes (spins) for a time, then exchanges a
// small message with both ring neighbours (Sendrecv), many times over. With
// k ranks computing c between exchanges of cost s0, a step takes
// k c / cores + s0 if they share cores as well as they could; the
// effective cores are k c / (step - s0). Each point is the fastest of
// three runs of about o.LockstepTime seconds.
func lockstepSuite(c *mpi.Comm, _ *Clock, _ float64, o Options, progress func(string)) []Row {
	k := c.Size()
	next, prev := (c.Rank()+1)%k, (c.Rank()+k-1)%k
	send, recv := make([]byte, 64), make([]byte, 64)
	cores := float64(min(k, o.cores))
	// Compute is a fixed amount of work, not a spin on the clock: a rank
	// that waits for a core must not get its compute done meanwhile.
	rate := []float64{workRate()}
	mpi.Bcast(c, rate, 0)
	var rows []Row
	base := 0.0
	for _, compute := range lockstepComputes {
		steps := 2000
		if compute > 0 {
			steps = min(2000, max(5, int(o.LockstepTime/compute)))
		}
		step := 0.0
		for run := range 3 {
			c.Barrier()
			t0 := mpi.Wtime()
			n := int(compute * rate[0])
			for range steps {
				work(n)
				mpi.Sendrecv(c, send, next, tagLockstep, recv, prev, tagLockstep)
			}
			c.Barrier()
			t := (mpi.Wtime() - t0) / float64(steps)
			// Rank 0's time decides, so that every rank agrees on it.
			all := []float64{t}
			mpi.Bcast(c, all, 0)
			if run == 0 || all[0] < step {
				step = all[0]
			}
		}
		if compute == 0 {
			base = step
			progress(fmt.Sprintf("lockstep %d ranks", k))
			continue
		}
		eff := cores
		if extra := step - base; extra > 0 {
			eff = min(cores, float64(k)*compute/extra)
		}
		rows = append(rows, Row{Kind: "lockstep", Label: fmt.Sprintf("Lockstep %gus", compute*1e6), Ranks: k, Compute: compute, Cores: eff, Ratio: eff,
			Stats: Stats{Launches: 3, Valid: 3, Trimmed: 3, Mean: step, Min: step, Max: step}})
		progress(fmt.Sprintf("lockstep %d ranks, %.0f us", k, compute*1e6))
	}
	return rows
}

var workSink uint64

// work runs n rounds of integer arithmetic.
func work(n int) {
	x := workSink | 1
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	workSink = x
}

// workRate is how many rounds of work run per second on one core: the
// best of five runs of 2 ms.
func workRate() float64 {
	best := 0.0
	for range 5 {
		n, t0 := 0, mpi.Wtime()
		for mpi.Wtime()-t0 < 2e-3 {
			work(1000)
			n += 1000
		}
		best = max(best, float64(n)/(mpi.Wtime()-t0))
	}
	return best
}
