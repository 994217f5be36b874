package probe

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/parpredict/parpredict/internal/atomicfile"
)

// Counts is what Flush writes: one entry per region index.
type Counts struct {
	Regions []RegionCounts `json:"regions"`
	Costs   *Costs         `json:"costs,omitempty"`  // with $PARPREDICT_PROBE_CALIBRATE
	TraceNs int64          `json:"traceNs"`          // writing the mpi trace, inside main
	RankNs  int64          `json:"rankNs,omitempty"` // finding ranks for per-rank trip counts
	// StartNs is the time Main spent starting the ranks before this
	// process's rank body began: MPI_Init and the run's communicator under
	// MPI, next to nothing with the goroutine backend.
	StartNs int64 `json:"startNs,omitempty"`
	// EndNs is the time from the end of the process's last rank body to
	// the return of MPI_Finalize: waiting for the other ranks, gathering
	// the trace, shutting MPI down.
	EndNs int64 `json:"endNs,omitempty"`
	// WallNs is this process's time from the probe's start (package
	// initialisation) to Flush: under a launcher, the program's wall time
	// without the launcher's own start-up.
	WallNs int64 `json:"wallNs"`
	Rank   int   `json:"rank"` // world rank of the process that wrote the file
}

// RegionCounts are the raw counters of one region.
type RegionCounts struct {
	Execs   int64   `json:"execs"`
	Iters   int64   `json:"iters,omitempty"`
	Ns      int64   `json:"ns,omitempty"`
	MinIter int64   `json:"minIter,omitempty"`
	MaxIter int64   `json:"maxIter,omitempty"`
	SqIter  int64   `json:"sqIter,omitempty"`
	Timed   bool    `json:"timed,omitempty"`
	VecNs   []int64 `json:"vecNs,omitempty"`  // per iteration ordinal, summed over entries
	VecCnt  []int64 `json:"vecCnt,omitempty"` // entries that reached that ordinal
	// RankTrips are the trip statistics per rank (index) of a loop listed
	// in $PARPREDICT_PROBE_RANKTRIPS.
	RankTrips []TripCounts `json:"rankTrips,omitempty"`
}

var flushOnce sync.Once

// Flush writes the counters to $PARPREDICT_PROBE_OUT once; later calls do
// nothing. Under a launcher every process writes its own file: the path's
// RankPlaceholder is replaced by the world rank, and only rank 0
// calibrates (the profiler takes the costs from its file). Errors go to
// stderr: the user's program must not fail because of its instrumentation.
func Flush() {
	flushOnce.Do(func() {
		path := os.Getenv(EnvOut)
		if path == "" || slots == nil {
			return
		}
		wall := Now()
		c := Snapshot()
		c.WallNs, c.Rank = wall, WorldRank()
		perProcess := strings.Contains(path, RankPlaceholder)
		path = outPath(path)
		if calibrateRequested() && (!perProcess || c.Rank == 0) {
			costs := Calibrate()
			c.Costs = &costs
		}
		if err := write(path, c); err != nil {
			fmt.Fprintf(os.Stderr, "probe: %v\n", err)
		}
	})
}

// Snapshot copies the current counters.
func Snapshot() *Counts {
	c := &Counts{Regions: make([]RegionCounts, len(slots)), TraceNs: traceNs.Load(), RankNs: rankNs.Load(), StartNs: startNs.Load(), EndNs: endNs.Load()}
	all := [][]slot{slots}
	for i := range shards {
		if p := shards[i].Load(); p != nil {
			all = append(all, *p)
		}
	}
	for i := range slots {
		s := &slots[i]
		r := &c.Regions[i]
		minIter := int64(0) // plus one, 0: none
		for _, sl := range all {
			part := &sl[i]
			r.Execs += atomic.LoadInt64(&part.execs)
			r.Iters += atomic.LoadInt64(&part.iters)
			r.Ns += atomic.LoadInt64(&part.ns)
			r.SqIter += atomic.LoadInt64(&part.sqIter) // wraps as one counter would
			r.MaxIter = max(r.MaxIter, atomic.LoadInt64(&part.maxIter))
			if m := atomic.LoadInt64(&part.minIter); m > 0 && (minIter == 0 || m < minIter) {
				minIter = m
			}
		}
		if minIter > 0 {
			r.MinIter = minIter - 1
		}
		r.Timed = s.timed
		if s.ranked {
			r.RankTrips = snapshotRankTrips(i)
		}
		a := &vecs[i]
		a.mu.Lock()
		// Prepared vectors are as long as the counting run's longest
		// entry; positions no entry reached are left out.
		n := len(a.cnt)
		for n > 0 && a.cnt[n-1] == 0 {
			n--
		}
		r.VecNs = append([]int64(nil), a.ns[:n]...)
		r.VecCnt = append([]int64(nil), a.cnt[:n]...)
		a.mu.Unlock()
	}
	return c
}

// write stores c at path atomically (temporary file and rename).
func write(path string, c *Counts) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, data)
}
