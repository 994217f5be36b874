package bench

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/internal/host"
	"github.com/parpredict/parpredict/mpi"
)

// Options configure a calibration run.
type Options struct {
	NP              int   // ranks for ping-pong and collectives: at least 2; 0 = 2, or the whole job under MPI
	ContentionPairs int   // measure contention for cf = 1..ContentionPairs
	Sizes           []int // ping-pong message sizes, increasing
	ContentionSizes []int
	Params          Params
	// Progress, when set, is called by rank 0 after each data point.
	Progress func(done, total int, label string)
	Name     string // machine name (default "local")
	// RingSync selects MPIPerf's ring clock synchronisation instead of the
	// linear one.
	RingSync bool
	Now      func() time.Time
	// LockstepTime is about how long each lockstep point runs, in seconds
	// (three times; 0: lockstep not measured).
	LockstepTime float64

	cores int // of this host, set by Calibrate
}

// DefaultOptions finish within two minutes on a 2-core machine.
func DefaultOptions() Options {
	return Options{NP: 2, ContentionPairs: 2,
		Sizes: []int{0, 8, 64, 256, 1024, 4096, 8192, 16384, 32768, 65536, 131072, 262144,
			1 << 20, 4 << 20},
		ContentionSizes: []int{1 << 20, 4 << 20},
		Params:          DefaultParams, Name: "local", Now: time.Now, LockstepTime: 0.05}
}

// Row is one data point of the report: what was measured and the MPIPerf
// statistics of its launches.
type Row struct {
	Kind  string `json:"kind"`  // timer, pingpong, contention, collective, compute
	Label string `json:"label"` // operation or check
	Bytes int    `json:"bytes"`
	Ranks int    `json:"ranks"`
	CF    int    `json:"cf,omitempty"`
	// Rounds is how many round trips a ping-pong launch made back to
	// back; the statistics are per round trip.
	Rounds    int     `json:"rounds,omitempty"`
	Ratio     float64 `json:"ratio,omitempty"`     // t(m,cf)/t(m,1), t(ppn)/t(1); lockstep: effective cores
	Expected  float64 `json:"expected,omitempty"`  // timer checks: the right answer
	Predicted float64 `json:"predicted,omitempty"` // collectives: the fitted model's prediction
	// Lockstep rows: compute time between exchanges, and the effective
	// cores that follow from the step time (Mean; Launches counts runs).
	Compute float64 `json:"compute,omitempty"`
	Cores   float64 `json:"cores,omitempty"`
	Pattern string  `json:"pattern,omitempty"` // lockstep: commmodel.PatternRing or PatternAlltoall
	// Refetch rows: the level-2 cache of a core (bytes; 0 unknown); Ratio
	// is the refetch bandwidth, Mean the extra time per step.
	Cache int64 `json:"cache,omitempty"`
	// Noise rows: the gap counted as a detour (s), detours per second
	// per rank, and quantiles of their durations (Stats: all of them).
	Threshold float64   `json:"threshold,omitempty"`
	Rate      float64   `json:"rate,omitempty"`
	Detours   []float64 `json:"detours,omitempty"`
	Stats
}

// Report is everything a calibration measured.
type Report struct {
	Date      string  `json:"date"`
	CPU       string  `json:"cpu"`
	Cores     int     `json:"cores"`
	Go        string  `json:"go"`
	Backend   string  `json:"backend"`
	ClockRTT  float64 `json:"clock_rtt"`
	BcastTime float64 `json:"bcast_bound"`
	Rows      []Row   `json:"rows"`
	Fit       []Line  `json:"fit"`
	Seconds   float64 `json:"seconds"`
	// The run's shape: its ranks (under MPI the job's processes), the
	// hosts they ran on, whether the ping-pong pair (ranks 0 and 1)
	// shared a host, and what the job's shape left out.
	MPI          bool     `json:"mpi"` // one process per rank, under mpirun
	Ranks        int      `json:"ranks"`
	Hosts        int      `json:"hosts"`
	PairSameHost bool     `json:"pair_same_host"`
	Notes        []string `json:"notes,omitempty"`
}

// Calibrate runs the benchmark suite over the mpi package and returns the
// fitted machine and the report. With the goroutine backend it starts the
// ranks it needs in this process. Under MPI (a build with -tags openmpi,
// started by mpirun) every process of the job must call it: the suites run
// on the job's first ranks, and world rank 0 gets the results while the
// others get ErrOtherRank.
func Calibrate(o Options) (*commmodel.Machine, *Report, error) {
	if o.NP == 1 || o.NP < 0 {
		return nil, nil, errors.New("bench: need at least 2 ranks")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	job, err := jobSize()
	if err != nil {
		return nil, nil, fmt.Errorf("bench: %w", err)
	}
	if job == 1 {
		return nil, nil, errors.New("bench: the MPI job has one process: start predict under mpirun -np 2 or more")
	}
	cores := runtime.NumCPU()
	if job > 0 {
		cores = host.Cores()
	}
	sh, err := o.plan(job, cores)
	if err != nil {
		return nil, nil, err
	}
	o.cores = cores
	// Large messages allocate in the goroutine backend; a collection in
	// the middle of a launch would be timed as communication. Collect
	// rarely during the run (and before each data point, in Measure).
	defer debug.SetGCPercent(debug.SetGCPercent(800))
	begin := o.Now()
	rep := &Report{Date: begin.UTC().Format(time.RFC3339), CPU: host.CPUModel(), Cores: cores,
		Go: runtime.Version(), Backend: backendName, MPI: job > 0, Ranks: sh.size, Notes: sh.notes}
	root := false
	err = mpi.Run(sh.size, func(world *mpi.Comm) {
		hosts := hostIDs(world)
		compute := computeRanks(hosts, rep.Cores)
		if world.Rank() == 0 { // with the goroutine backend the ranks share rep
			root = true
			rep.Hosts = distinct(hosts)
			rep.PairSameHost = hosts[0] == hosts[1]
			if compute < rep.Cores {
				rep.Notes = append(rep.Notes, fmt.Sprintf("compute slowdown measured for 1..%d ranks per node: only the first %d ranks share rank 0's host (of %d cores)", compute, compute, rep.Cores))
			}
		}
		var lockstep []int
		if o.LockstepTime > 0 {
			lockstep = lockstepRanks(hosts, rep.Cores)
		}
		total := 3 + len(o.Sizes) + len(collectives) + sh.pairs*len(o.ContentionSizes) + 2*compute + 2*len(lockstep)*lockstepRuns
		done := 0
		progress := func(label string) {
			done++
			if o.Progress != nil {
				o.Progress(done, total, label)
			}
		}
		// Each part synchronises its own ranks' clocks; rank 0 keeps the
		// rows (progress is reported by rank 0 only).
		suite := func(n int, run func(*mpi.Comm, *Clock, float64, Options, func(string)) []Row) {
			part(world, n, func(c *mpi.Comm) {
				k := o.sync(c)
				tb := BroadcastBound(c, k)
				report := func(label string) {
					if c.Rank() == 0 {
						progress(label)
					}
				}
				rows := run(c, k, tb, o, report)
				rtt := make([]float64, 1)
				mpi.Allreduce(c, []float64{k.RTT}, rtt, mpi.Max)
				if c.Rank() == 0 {
					rep.Rows = append(rep.Rows, rows...)
					if n == sh.np {
						rep.BcastTime, rep.ClockRTT = tb, rtt[0]
					}
				}
			})
		}
		suite(sh.np, timerSuite)
		suite(2, pingPongSuite)
		suite(sh.np, collectiveSuite)
		if sh.pairs >= 1 {
			suite(2*sh.pairs, contentionSuite)
		}
		suite(compute, computeSuite)
		suite(compute, faultSuite)
		suite(compute, noiseSuite)
		for _, k := range lockstep {
			suite(k, func(c *mpi.Comm, _ *Clock, _ float64, o Options, progress func(string)) []Row {
				var pp64, pp8, ppBlock float64
				if c.Rank() == 0 {
					pp64, pp8, ppBlock = oneWay(rep.Rows, lockstepBytes), oneWay(rep.Rows, 8), oneWay(rep.Rows, lockstepAlltoallBytes)
				}
				return lockstepSuite(c, pp64, pp8, ppBlock, o, progress)
			})
		}
		// Twice as many ranks as cores, where the lockstep suite has them.
		if slices.Contains(lockstep, 2*rep.Cores) {
			suite(2*rep.Cores, refetchSuite)
		}
	})
	if err != nil {
		return nil, nil, fmt.Errorf("bench: %w", err)
	}
	if !root {
		return nil, nil, ErrOtherRank
	}
	m, err := buildMachine(o, rep)
	if err != nil {
		return nil, nil, err
	}
	predictCollectives(m, rep, sh.np)
	rep.Seconds = o.Now().Sub(begin).Seconds()
	return m, rep, nil
}

// sync synchronises the clocks by the chosen algorithm: stop after 100
// tries without a smaller round trip, at most 2,000.
func (o *Options) sync(c *mpi.Comm) *Clock {
	if o.RingSync {
		return SyncClocksRing(c, 100, 2000)
	}
	return SyncClocks(c, 100, 2000)
}
