package bench

import (
	"fmt"
	"slices"

	"github.com/parpredict/parpredict/mpi"
)

const tagLockstep = tagIdle + 1

// lockstepComputes are the compute times per step that the lockstep suite
// measures, in seconds.
var lockstepComputes = []float64{10e-6, 30e-6, 100e-6, 300e-6, 1e-3, 3e-3, 10e-3}

// lockstepRuns is how many times each point is measured (the fastest
// counts).
const lockstepRuns = 5

// lockstepOps is the number of MPI operations of a lockstep step.
const lockstepOps = 3

// lockstepBytes is the size of the lockstep suite's messages.
const lockstepBytes = 64

// oversubscribed is how many ranks per core the lockstep suite goes up
// to: programs are validated on a few cores with more ranks than cores.
const oversubscribed = 4

// lockstepRanks are the rank counts of the lockstep suite: 2, the cores,
// and 2 and 4 ranks per core, as far as the run has ranks on rank 0's host
// (hosts lists the run's ranks' hosts).
func lockstepRanks(hosts []uint64, cores int) []int {
	n := 0
	for n < len(hosts) && hosts[n] == hosts[0] {
		n++
	}
	var ks []int
	for _, k := range []int{2, cores, 2 * cores, oversubscribed * cores} {
		if k >= 2 && k <= n && !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	return ks
}

// lockstepSuite measures how many cores ranks that synchronise in lockstep
// effectively get: every rank computes (spins) for a time, then does what
// a step of a typical SPMD program does, a halo exchange with both ring
// neighbours (two Sendrecvs) and a one-number Allreduce, many times over.
// The cost model prices those at about the ping-pong times (pp64 and pp8,
// one-way times of 64 and 8 bytes measured before by the ping-pong suite;
// rank 0's values count): exchange = 2 pp64 + ceil(log2 k) pp8 for the
// recursive-doubling Allreduce. With k ranks computing c per step, a step
// would take k c / cores + exchange if they shared the cores as well as
// they could. The effective cores are k c / (step - exchange), so that
// whatever a step takes beyond the modelled operations (turns on a shared
// core, a parked rank's wake-up, a runtime's per-call cost) is charged to
// the compute between operations, where the prediction applies the table;
// a row's Compute is that time, c / lockstepOps. Each point is the fastest
// of lockstepRuns runs of about o.LockstepTime seconds.
func lockstepSuite(c *mpi.Comm, pp64, pp8 float64, o Options, progress func(string)) []Row {
	k := c.Size()
	next, prev := (c.Rank()+1)%k, (c.Rank()+k-1)%k
	send, recv := make([]byte, lockstepBytes), make([]byte, lockstepBytes)
	local, global := []float64{1}, []float64{0}
	cores := float64(min(k, o.cores))
	// Compute is a fixed amount of work, not a spin on the clock: a rank
	// that waits for a core must not get its compute done meanwhile.
	rate := []float64{workRate(), pp64, pp8}
	mpi.Bcast(c, rate, 0)
	rounds := 0
	for 1<<rounds < k {
		rounds++
	}
	exchange := 2*rate[1] + float64(rounds)*rate[2]
	// The runs take turns over the compute times, so that a slow spell
	// of the machine (another process, a host that takes a virtual core
	// away) spoils one run of several points, not every run of one.
	best := make([]float64, len(lockstepComputes))
	for run := range lockstepRuns {
		for i, compute := range lockstepComputes {
			steps := min(2000, max(5, int(o.LockstepTime/compute)))
			n := int(compute * rate[0])
			c.Barrier()
			t0 := mpi.Wtime()
			for range steps {
				work(n)
				mpi.Sendrecv(c, send, next, tagLockstep, recv, prev, tagLockstep)
				mpi.Sendrecv(c, send, prev, tagLockstep, recv, next, tagLockstep)
				mpi.Allreduce(c, local, global, mpi.Max)
			}
			c.Barrier()
			t := (mpi.Wtime() - t0) / float64(steps)
			// Rank 0's time decides, so that every rank agrees on it.
			all := []float64{t}
			mpi.Bcast(c, all, 0)
			if run == 0 || all[0] < best[i] {
				best[i] = all[0]
			}
		}
		progress(fmt.Sprintf("lockstep %d ranks, run %d of %d", k, run+1, lockstepRuns))
	}
	var rows []Row
	for i, compute := range lockstepComputes {
		step := best[i]
		eff := cores
		if extra := step - exchange; extra > 0 {
			eff = min(cores, float64(k)*compute/extra)
		}
		rows = append(rows, Row{Kind: "lockstep", Label: fmt.Sprintf("Lockstep %gus", compute*1e6), Ranks: k, Compute: compute / lockstepOps, Cores: eff, Ratio: eff,
			Stats: Stats{Launches: lockstepRuns, Valid: lockstepRuns, Trimmed: lockstepRuns, Mean: step, Min: step, Max: step}})
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
