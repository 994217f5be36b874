package probe

import (
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Environment variables read at start-up.
const (
	EnvOut   = "PARPREDICT_PROBE_OUT"   // file the counters are written to
	EnvN     = "PARPREDICT_PROBE_N"     // number of regions
	EnvTimed = "PARPREDICT_PROBE_TIMED" // comma-separated indices of timed regions, or "all"
	EnvVec   = "PARPREDICT_PROBE_VEC"   // comma-separated indices of loops with per-iteration times, each optionally :most iterations per entry
)

// slot holds one region's counters, updated through add, lower and raise
// (atomically unless exclusive). The padding keeps regions on separate
// cache lines, so ranks updating different regions do not slow each other.
type slot struct {
	execs   int64 // executions (entries for loops)
	iters   int64 // loop iterations
	ns      int64 // timed nanoseconds, probe cost included
	minIter int64 // smallest iterations per entry, plus one (0: none)
	maxIter int64 // largest iterations per entry
	sqIter  int64 // sum of squared iterations per entry (saturating)
	timed   bool
	vec     bool
	ranked  bool // trip counts kept per rank too
	_       [13]byte
}

var (
	// slots holds every region's flags (timed, vec, ranked), and the
	// counters of the process's only rank (exclusive) or of code that
	// runs before Main.
	slots []slot
	// shards hold the counters of ranks that share the process: each
	// goroutine updates the shard its stack picks (own), so that ranks
	// running the same kernel do not take turns on its slot's cache line.
	// An atomic add on a line another core just wrote took 280-300 ns a
	// loop entry against 82 ns alone (two goroutines, 2-core VM): cg's
	// short kernels, entered thousands of times, then measured 1.6-1.8
	// times slower per element with 2 ranks in the contention runs than
	// with 1. Shards are made on first use.
	shards   = new(shardSet)
	shardsMu sync.Mutex
	epoch    = time.Now()
	// exclusive is set by Main, before any rank starts, when the process
	// runs a single rank: the goroutine backend at one rank, or one
	// process of an MPI job. The counters are then plain additions; an
	// atomic add costs a locked instruction, and a loop entered once per
	// element of an outer one in another function (mandelbrot's escape
	// loop, per pixel) paid seven of them per entry, a fifth of its time
	// in the counting run. Before Main, and with ranks sharing the
	// process, they are atomic.
	exclusive bool
)

// shardSet is the shards of the counters, each made on first use.
type shardSet [numShards]atomic.Pointer[[]slot]

// numShards is a power of two, large enough that two of a machine's ranks
// rarely pick the same shard (with 16 ranks, about one run in ten has a
// pair that does, which then shares lines as every rank did before).
const (
	shardBits = 10
	numShards = 1 << shardBits
)

// own returns region k's slot for the calling goroutine: slots[k] when
// the process runs one rank, else k's slot in the shard picked by a hash
// of the goroutine's stack address (goroutines' stacks do not overlap; a
// stack that grows moves, and its goroutine may go on in another shard,
// which only costs the sharing this avoids).
func own(k int) *slot {
	if exclusive {
		return &slots[k]
	}
	return sharded(k)
}

// sharded is own's shared case, apart so that own inlines.
func sharded(k int) *slot {
	var marker byte
	h := uint64(uintptr(unsafe.Pointer(&marker))>>11) * 0x9E3779B97F4A7C15
	i := h >> (64 - shardBits)
	var sh []slot
	if p := shards[i].Load(); p != nil {
		sh = *p
	} else {
		sh = newShard(i)
	}
	if k < len(sh) {
		return &sh[k]
	}
	// Calibrate swaps in arrays of its own after the ranks end; a rank
	// still running then (another called Exit) may see its slots
	// beside the old shards. Its count is lost with the process.
	return new(slot)
}

// newShard makes shard i, copying the regions' flags.
//
//go:noinline
func newShard(i uint64) []slot {
	shardsMu.Lock()
	defer shardsMu.Unlock()
	if p := shards[i].Load(); p != nil {
		return *p
	}
	sh := make([]slot, len(slots))
	for k := range slots {
		sh[k].timed, sh[k].vec, sh[k].ranked = slots[k].timed, slots[k].vec, slots[k].ranked
	}
	shards[i].Store(&sh)
	return sh
}

// add adds n to the counter at p.
func add(p *int64, n int64) {
	if exclusive {
		*p += n
		return
	}
	atomic.AddInt64(p, n)
}

// lower makes the counter at p v if it is 0 or larger (minIter, stored
// plus one).
func lower(p *int64, v int64) {
	if exclusive {
		if *p == 0 || v < *p {
			*p = v
		}
		return
	}
	for m := atomic.LoadInt64(p); m == 0 || v < m; m = atomic.LoadInt64(p) {
		if atomic.CompareAndSwapInt64(p, m, v) {
			return
		}
	}
}

// raise makes the counter at p v if it is smaller.
func raise(p *int64, v int64) {
	if exclusive {
		if v > *p {
			*p = v
		}
		return
	}
	for m := atomic.LoadInt64(p); v > m; m = atomic.LoadInt64(p) {
		if atomic.CompareAndSwapInt64(p, m, v) {
			return
		}
	}
}

func init() {
	setup(os.Getenv(EnvN), os.Getenv(EnvTimed), os.Getenv(EnvVec))
	mark(os.Getenv(EnvRankTrips), func(s *slot) { s.ranked = true })
}

// setup sizes the slot array and marks timed and vector regions. Bad
// values leave probes off rather than failing the user's program.
func setup(n, timed, vec string) {
	shards = new(shardSet)
	count, err := strconv.Atoi(n)
	if err != nil || count <= 0 || count > 1<<20 {
		slots = nil
		return
	}
	slots = make([]slot, count)
	mark(timed, func(s *slot) { s.timed = true })
	vecs = make([]vecAcc, count)
	for _, f := range strings.Split(vec, ",") {
		id, length, _ := strings.Cut(strings.TrimSpace(f), ":")
		k, err := strconv.Atoi(id)
		if err != nil || k < 0 || k >= len(slots) {
			continue
		}
		slots[k].vec = true
		if n, err := strconv.Atoi(length); err == nil && n > 0 {
			vecs[k].prepare(k, min(n, maxVec))
		}
	}
}

func mark(list string, set func(*slot)) {
	if list == "all" {
		for i := range slots {
			set(&slots[i])
		}
		return
	}
	for _, f := range strings.Split(list, ",") {
		if k, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && k >= 0 && k < len(slots) {
			set(&slots[k])
		}
	}
}

// Now is the monotonic clock in nanoseconds since start-up.
func Now() int64 { return int64(time.Since(epoch)) }

// Start begins an execution of region k and returns its start time, or 0
// when k is not timed.
func Start(k int) int64 {
	if k < len(slots) && slots[k].timed {
		return start()
	}
	return 0
}

// start is kept out of line so that Start stays small enough to inline:
// an untimed region then costs a bounds check and a load.
//
//go:noinline
func start() int64 { return Now() + 1 } // never 0, so Stop can tell

// Stop ends an execution of region k begun by Start.
func Stop(k int, t0 int64) {
	if k >= len(slots) {
		return
	}
	s := own(k)
	add(&s.execs, 1)
	if t0 != 0 {
		add(&s.ns, Now()+1-t0)
	}
}

// Timed ends an execution of call site k begun by Start and passes the
// call's value through: a call inside an expression, f(g(x)), is timed in
// place as Timed(k, Start(k), g(x)), Go calling Start first (calls are
// evaluated left to right) and Timed once g has returned.
func Timed[T any](k int, t0 int64, v T) T {
	Stop(k, t0)
	return v
}

// TimedIn is Timed inside a loop of the counting binary: an untimed
// execution is counted in the loop's local counter n, not atomically.
func TimedIn[T any](k int, t0 int64, n *int64, v T) T {
	if t0 != 0 {
		Stop(k, t0)
	} else {
		*n++
	}
	return v
}

// Inc counts one execution of region k.
func Inc(k int) {
	if k < len(slots) {
		add(&own(k).execs, 1)
	}
}

// LoopStart is called before loop k; it returns the start time when the
// loop is timed, else 0.
func LoopStart(k int) int64 { return Start(k) }

// Loop records one entry of loop k that ran n iterations, begun at t0.
func Loop(k int, n int64, t0 int64) {
	if k >= len(slots) {
		return
	}
	s := own(k)
	add(&s.execs, 1)
	add(&s.iters, n)
	if t0 != 0 {
		add(&s.ns, Now()+1-t0)
	}
	lower(&s.minIter, n+1)
	raise(&s.maxIter, n)
	if n < 1<<31 {
		add(&s.sqIter, n*n)
	}
	if s.ranked {
		t := TripCounts{Entries: 1, Iters: n, MinIter: n, MaxIter: n}
		if n < 1<<31 {
			t.SqIter = n * n
		}
		recordRankTrips(k, t)
	}
}

// Add adds n executions to region k; loops flush their local counters of
// branch arms and untimed call sites through it.
func Add(k int, n int64) {
	if n != 0 && k < len(slots) {
		add(&own(k).execs, n)
	}
}

// Test counts the outcome of one test of a loop's compound condition in
// the enclosing loop's local counters, and passes the value through:
// small enough to inline, so the condition stays a few instructions.
func Test(onTrue, onFalse *int64, v bool) bool {
	if v {
		*onTrue++
	} else {
		*onFalse++
	}
	return v
}

// TestAt counts the outcome of a branch test outside loops in region
// onTrue or onFalse, and passes the value through.
func TestAt(onTrue, onFalse int, v bool) bool {
	if v {
		Inc(onTrue)
	} else {
		Inc(onFalse)
	}
	return v
}

// Below is how many of the n values lo, lo+1, ... are below c: the
// executions of a then arm that tests a loop's induction variable,
// counted once per entry of the loop instead of once per iteration.
func Below(lo, n, c int64) int64 {
	if c <= lo {
		return 0
	}
	if d := c - lo; d > 0 && d < n {
		return d
	}
	return n
}

// Acc accumulates the entries of an inner loop in a local variable of its
// enclosing loop, so an inner loop costs no atomic operation per entry.
type Acc struct {
	entries, iters, sq, min, max int64 // min is stored plus one (0: none)
}

// Add records one entry of n iterations.
func (a *Acc) Add(n int64) {
	a.entries++
	a.iters += n
	if n < 1<<31 {
		a.sq += n * n
	}
	if a.min == 0 || n+1 < a.min {
		a.min = n + 1
	}
	if n > a.max {
		a.max = n
	}
}

// Loops records entries entries of inner loop k of n iterations each:
// a loop whose trip count its enclosing loop does not change, entered
// once per iteration of it, recorded at that loop's exit instead of at
// each entry (the instrumenter's rectangular nests).
func Loops(k int, entries, n int64) {
	if entries <= 0 {
		return
	}
	a := Acc{entries: entries, iters: entries * n, min: n + 1, max: n}
	if n < 1<<31 && n*n <= math.MaxInt64/entries {
		a.sq = entries * n * n
	}
	AddAcc(k, &a)
}

// AddAcc flushes an accumulator into loop k.
func AddAcc(k int, a *Acc) {
	if a.entries == 0 || k >= len(slots) {
		return
	}
	s := own(k)
	add(&s.execs, a.entries)
	add(&s.iters, a.iters)
	add(&s.sqIter, a.sq)
	lower(&s.minIter, a.min)
	raise(&s.maxIter, a.max)
	if s.ranked {
		recordRankTrips(k, TripCounts{Entries: a.entries, Iters: a.iters, SqIter: a.sq, MinIter: a.min - 1, MaxIter: a.max})
	}
}
