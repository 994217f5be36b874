package bench

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/mpi"
)

// Options configure a calibration run.
type Options struct {
	NP              int   // ranks for ping-pong and collectives (at least 2)
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
}

// DefaultOptions finish within two minutes on a 2-core machine.
func DefaultOptions() Options {
	return Options{NP: 2, ContentionPairs: 2,
		Sizes: []int{0, 8, 64, 256, 1024, 4096, 8192, 16384, 32768, 65536, 131072, 262144,
			1 << 20, 4 << 20},
		ContentionSizes: []int{1 << 20, 4 << 20},
		Params:          DefaultParams, Name: "local", Now: time.Now}
}

// Row is one data point of the report: what was measured and the MPIPerf
// statistics of its launches.
type Row struct {
	Kind      string  `json:"kind"`  // timer, pingpong, contention, collective, compute
	Label     string  `json:"label"` // operation or check
	Bytes     int     `json:"bytes"`
	Ranks     int     `json:"ranks"`
	CF        int     `json:"cf,omitempty"`
	Ratio     float64 `json:"ratio,omitempty"`     // t(m,cf)/t(m,1), t(ppn)/t(1)
	Expected  float64 `json:"expected,omitempty"`  // timer checks: the right answer
	Predicted float64 `json:"predicted,omitempty"` // collectives: the fitted model's prediction
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
}

// Calibrate runs the benchmark suite over the mpi package's goroutine
// backend and returns the fitted machine and the report.
func Calibrate(o Options) (*commmodel.Machine, *Report, error) {
	if o.NP < 2 {
		return nil, nil, errors.New("bench: need at least 2 ranks")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	// Large messages allocate in the goroutine backend; a collection in
	// the middle of a launch would be timed as communication. Collect
	// rarely during the run (and before each data point, in Measure).
	defer debug.SetGCPercent(debug.SetGCPercent(800))
	begin := o.Now()
	rep := &Report{Date: begin.UTC().Format(time.RFC3339), CPU: cpuModel(), Cores: runtime.NumCPU(),
		Go: runtime.Version(), Backend: "mpi goroutine backend (ranks share one process)"}
	total := 2 + len(o.Sizes) + len(collectives) + o.ContentionPairs*len(o.ContentionSizes) + rep.Cores
	done := 0
	progress := func(label string) {
		done++
		if o.Progress != nil {
			o.Progress(done, total, label)
		}
	}
	err := mpi.Run(o.NP, func(c *mpi.Comm) {
		k := o.sync(c)
		tb := BroadcastBound(c, k)
		rows := mainSuite(c, k, tb, o, rep.Cores, progress)
		if c.Rank() == 0 {
			rep.Rows = append(rep.Rows, rows...)
			rep.BcastTime = tb
		}
		if c.Rank() == 1 {
			rep.ClockRTT = k.RTT
		}
	})
	if err != nil {
		return nil, nil, fmt.Errorf("bench: %w", err)
	}
	if o.ContentionPairs >= 1 {
		err = mpi.Run(2*o.ContentionPairs, func(c *mpi.Comm) {
			k := o.sync(c)
			tb := BroadcastBound(c, k)
			rows := contentionSuite(c, k, tb, o, progress)
			if c.Rank() == 0 {
				rep.Rows = append(rep.Rows, rows...)
			}
		})
		if err != nil {
			return nil, nil, fmt.Errorf("bench: contention: %w", err)
		}
	}
	err = mpi.Run(rep.Cores, func(c *mpi.Comm) {
		k := o.sync(c)
		tb := BroadcastBound(c, k)
		rows := computeSuite(c, k, tb, o, progress)
		if c.Rank() == 0 {
			rep.Rows = append(rep.Rows, rows...)
		}
	})
	if err != nil {
		return nil, nil, fmt.Errorf("bench: compute: %w", err)
	}
	m, err := buildMachine(o, rep)
	if err != nil {
		return nil, nil, err
	}
	predictCollectives(m, rep, o.NP)
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
