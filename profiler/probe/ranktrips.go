package probe

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// EnvRankTrips lists the loops (comma-separated indices) whose trip
// counts are also kept per rank: loops whose trip count the instrumenter
// could not compute at entry, which may depend on the rank's data.
const EnvRankTrips = "PARPREDICT_PROBE_RANKTRIPS"

// TripCounts are the trip statistics of one loop on one rank.
type TripCounts struct {
	Entries int64 `json:"entries"`
	Iters   int64 `json:"iters"`
	SqIter  int64 `json:"sqIter"`
	MinIter int64 `json:"minIter"`
	MaxIter int64 `json:"maxIter"`
}

// Add merges o into t.
func (t *TripCounts) Add(o TripCounts) {
	if o.Entries == 0 {
		return
	}
	if t.Entries == 0 || o.MinIter < t.MinIter {
		t.MinIter = o.MinIter
	}
	t.MaxIter = max(t.MaxIter, o.MaxIter)
	t.Entries += o.Entries
	t.Iters += o.Iters
	t.SqIter += o.SqIter
}

var rankTrips struct {
	mu   sync.Mutex
	byLo map[int][]TripCounts // region -> per rank
	seen map[int]int          // region -> entries recorded per rank
}

// maxRankedEntries bounds how many flushes of one loop are recorded per
// rank: finding the rank costs about a microsecond, and a data-dependent
// loop in a function called for every pixel is entered millions of times.
// The statistics per rank then describe the first entries; the pooled ones
// still count every entry.
const maxRankedEntries = 1 << 12

// rankNs is the time spent finding ranks, which the profiler takes out of
// the counting run's wall time.
var rankNs atomic.Int64

// goRanks maps the goroutines running rank bodies (Main registers them)
// to their ranks: with the goroutine backend all ranks share the process.
var goRanks sync.Map // goroutine id -> rank

// registerRank records that the calling goroutine runs rank.
func registerRank(rank int) { goRanks.Store(goid(), rank) }

// currentRank is the rank the calling goroutine runs; code outside a rank
// body counts for the process's world rank.
func currentRank() int {
	if r, ok := goRanks.Load(goid()); ok {
		return r.(int)
	}
	return WorldRank()
}

// goid reads the calling goroutine's id from its stack header
// ("goroutine 18 [running]:"). It costs about a microsecond, which is
// why only data-dependent loops pay it, once per entry of the outermost
// loop.
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}

// recordRankTrips adds one or more entries of loop k to the calling
// rank's statistics.
func recordRankTrips(k int, t TripCounts) {
	rankTrips.mu.Lock()
	full := rankTrips.seen[k] >= maxRankedEntries*max(1, len(rankTrips.byLo[k]))
	rankTrips.mu.Unlock()
	if full {
		return
	}
	t0 := Now()
	r := currentRank()
	rankTrips.mu.Lock()
	defer func() {
		rankTrips.mu.Unlock()
		rankNs.Add(Now() - t0)
	}()
	if rankTrips.byLo == nil {
		rankTrips.byLo, rankTrips.seen = map[int][]TripCounts{}, map[int]int{}
	}
	rankTrips.seen[k]++
	per := rankTrips.byLo[k]
	for len(per) <= r {
		per = append(per, TripCounts{})
	}
	per[r].Add(t)
	rankTrips.byLo[k] = per
}

// snapshotRankTrips copies loop k's per-rank statistics.
func snapshotRankTrips(k int) []TripCounts {
	rankTrips.mu.Lock()
	defer rankTrips.mu.Unlock()
	return append([]TripCounts(nil), rankTrips.byLo[k]...)
}
