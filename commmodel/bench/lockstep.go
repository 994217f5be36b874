package bench

import (
	"fmt"
	"slices"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/mpi"
)

const tagLockstep = tagIdle + 1

// lockstepComputes are the compute times per step that the lockstep suite
// measures, in seconds.
var lockstepComputes = []float64{3e-6, 10e-6, 30e-6, 100e-6, 300e-6, 1e-3, 3e-3, 10e-3}

// lockstepRuns is how many times each point is measured (the fastest
// counts).
const lockstepRuns = 5

// lockstepOps is the number of MPI operations of a lockstep step.
const lockstepOps = 3

// lockstepBytes is the size of the ring pattern's messages.
const lockstepBytes = 64

// lockstepAlltoallBytes is the block each rank sends every other in the
// all-to-all pattern: above the goroutine backend's rendezvous size and
// MPI libraries' usual eager limits, as a transpose's blocks are.
const lockstepAlltoallBytes = 32 << 10

// oversubscribed is how many ranks per core the lockstep suite goes up
// to: programs are validated on a few cores with more ranks than cores.
const oversubscribed = 4

// lockstepRanks are the rank counts of the lockstep suite: the powers of
// two from 2 up to the cores, the cores, and 2 and 4 ranks per core, as
// far as the run has ranks on rank 0's host (hosts lists the run's ranks'
// hosts). The prediction interpolates between the counts in log(ranks);
// on a 16-core machine 2 and 16 alone put 8 ranks, which took twice as
// long as 4 in heat and cg, between the two (docs/validation.md).
func lockstepRanks(hosts []uint64, cores int) []int {
	n := 0
	for n < len(hosts) && hosts[n] == hosts[0] {
		n++
	}
	var counts []int
	for k := 2; k < cores; k *= 2 {
		counts = append(counts, k)
	}
	var ks []int
	for _, k := range append(counts, cores, 2*cores, oversubscribed*cores) {
		if k >= 2 && k <= n && !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	return ks
}

// lockstepSuite measures how many cores ranks that synchronise in lockstep
// effectively get, for each pattern (commmodel.PatternRing and
// PatternAlltoall): every rank computes (a fixed amount of work) for a
// time, then does what a step of a typical SPMD program does, many times
// over. In the ring pattern that is a halo exchange with both ring
// neighbours (two Sendrecvs of 64 bytes) and a one-number Allreduce; in
// the all-to-all pattern an Alltoall of 32 KiB blocks, a transpose's step.
// The cost model prices a ring step's exchange at about the ping-pong
// times (pp64 and pp8, one-way times of 64 and 8 bytes measured before by
// the ping-pong suite; rank 0's values count): 2 pp64 + ceil(log2 k) pp8
// for the recursive-doubling Allreduce; an all-to-all step's at k-1
// one-way times of its block (ppBlock, pairwise exchange). With k ranks
// computing c per step, a step would take k c / cores + exchange if they
// shared the cores as well as they could. The effective cores are
// k c / (step - exchange), so that whatever a step takes beyond the
// modelled operations (turns on a shared core, a parked rank's wake-up, a
// runtime's per-call cost) is charged to the compute between operations,
// where the prediction applies the table; a row's Compute is that time
// per operation, c / lockstepOps for the ring and c for the all-to-all.
// Each point is the fastest of lockstepRuns runs of about o.LockstepTime
// seconds.
func lockstepSuite(c *mpi.Comm, pp64, pp8, ppBlock float64, o Options, progress func(string)) []Row {
	k := c.Size()
	next, prev := (c.Rank()+1)%k, (c.Rank()+k-1)%k
	send, recv := make([]byte, lockstepBytes), make([]byte, lockstepBytes)
	blocks, blocksIn := make([]byte, k*lockstepAlltoallBytes), make([]byte, k*lockstepAlltoallBytes)
	local, global := []float64{1}, []float64{0}
	cores := float64(min(k, o.cores))
	// Compute is a fixed amount of work, not a spin on the clock: a rank
	// that waits for a core must not get its compute done meanwhile.
	rate := []float64{workRate(), pp64, pp8, ppBlock}
	mpi.Bcast(c, rate, 0)
	rounds := 0
	for 1<<rounds < k {
		rounds++
	}
	type pattern struct {
		name     string
		ops      int
		exchange float64
		step     func()
	}
	patterns := []pattern{
		{commmodel.PatternRing, lockstepOps, 2*rate[1] + float64(rounds)*rate[2], func() {
			mpi.Sendrecv(c, send, next, tagLockstep, recv, prev, tagLockstep)
			mpi.Sendrecv(c, send, prev, tagLockstep, recv, next, tagLockstep)
			mpi.Allreduce(c, local, global, mpi.Max)
		}},
		{commmodel.PatternAlltoall, 1, float64(k-1) * rate[3], func() { mpi.Alltoall(c, blocks, blocksIn) }},
	}
	var rows []Row
	for _, pat := range patterns {
		// The runs take turns over the compute times, so that a slow
		// spell of the machine (another process, a host that takes a
		// virtual core away) spoils one run of several points, not every
		// run of one.
		steps := lockstepSteps(c, rate[0], o.LockstepTime, pat.step)
		best := make([]float64, len(lockstepComputes))
		for run := range lockstepRuns {
			for i, compute := range lockstepComputes {
				n := int(compute * rate[0])
				c.Barrier()
				t0 := mpi.Wtime()
				for range steps[i] {
					work(n)
					pat.step()
				}
				c.Barrier()
				t := (mpi.Wtime() - t0) / float64(steps[i])
				// Rank 0's time decides, so that every rank agrees on it.
				all := []float64{t}
				mpi.Bcast(c, all, 0)
				if run == 0 || all[0] < best[i] {
					best[i] = all[0]
				}
			}
			progress(fmt.Sprintf("lockstep %s %d ranks, run %d of %d", patternName(pat.name), k, run+1, lockstepRuns))
		}
		for i, compute := range lockstepComputes {
			step := best[i]
			eff := cores
			if extra := step - pat.exchange; extra > 0 {
				eff = min(cores, float64(k)*compute/extra)
			}
			rows = append(rows, Row{Kind: "lockstep", Label: fmt.Sprintf("Lockstep %s %gus", patternName(pat.name), compute*1e6), Pattern: pat.name,
				Ranks: k, Compute: compute / float64(pat.ops), Cores: eff, Ratio: eff,
				Stats: Stats{Launches: lockstepRuns, Valid: lockstepRuns, Trimmed: lockstepRuns, Mean: step, Min: step, Max: step}})
		}
	}
	return rows
}

// lockstepSteps is how many steps a run of each of lockstepComputes
// takes to last about runTime seconds (5 to 2000): a step timed once, as
// rank 0 saw it. The step's operations count, not only its compute: an
// all-to-all of 32 KiB blocks among 64 ranks copies 128 MiB a step, and
// sized by its compute alone the suite ran for minutes on 16 cores.
func lockstepSteps(c *mpi.Comm, rate, runTime float64, step func()) []int {
	steps := make([]int, len(lockstepComputes))
	for i, compute := range lockstepComputes {
		c.Barrier()
		t0 := mpi.Wtime()
		work(int(compute * rate))
		step()
		c.Barrier()
		t := []float64{mpi.Wtime() - t0}
		mpi.Bcast(c, t, 0)
		steps[i] = min(2000, max(5, int(runTime/max(t[0], compute))))
	}
	return steps
}

// patternName names a lockstep pattern in reports.
func patternName(p string) string {
	if p == commmodel.PatternRing {
		return "ring"
	}
	return p
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

// oneWay is the one-way time of the ping-pong row closest in size to
// bytes from below (the smallest row if all are larger), or 0 without one.
func oneWay(rows []Row, bytes int) float64 {
	var below, above *Row
	for i := range rows {
		r := &rows[i]
		switch {
		case r.Kind != "pingpong" || r.Valid == 0:
		case r.Bytes <= bytes && (below == nil || r.Bytes > below.Bytes):
			below = r
		case r.Bytes > bytes && (above == nil || r.Bytes < above.Bytes):
			above = r
		}
	}
	switch {
	case below != nil:
		return below.Mean / 2
	case above != nil:
		return above.Mean / 2
	}
	return 0
}
