package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/parpredict/parpredict/mpi"
)

// The refetch suite's grids: each rank sweeps a five-point stencil from
// one refetchRows x refetchCols grid of float64 into another, 128 KiB
// each, as heat does with its share of the field.
const (
	refetchRows = 64
	refetchCols = 256
	refetchRuns = 9
)

// refetchSuite measures what ranks that take turns on the cores pay to
// bring their working set back into a core's caches. Twice as many ranks
// as cores run heat's step (a stencil sweep, then the ring exchange and
// the one-number Allreduce of the lockstep suite) in turns with the same
// step whose sweep is replaced by integer work of the same time alone on
// a core. The integer work keeps nothing in the caches; the sweep finds
// its grids gone when the rank gets a core back after another ran there
// or on another core (the Go scheduler runs a woken goroutine on the
// waker's core). With k ranks on c cores, every rank resumes once a step,
// so each core pays k/c refetches of the working set W a step beyond the
// integer step: the bandwidth is k W / (c extra). On 2 cores heat's
// four-rank runs took 1.42-1.47 times its two-rank ones where this
// suite's integer step predicted 1.17-1.27 (docs/validation.md).
func refetchSuite(c *mpi.Comm, _ *Clock, _ float64, o Options, progress func(string)) []Row {
	k, cores := c.Size(), o.cores
	u, v := make([]float64, refetchRows*refetchCols), make([]float64, refetchRows*refetchCols)
	for i := range u {
		u[i] = float64(i % 7)
	}
	sweep := func() {
		for i := 1; i < refetchRows-1; i++ {
			for j := 1; j < refetchCols-1; j++ {
				x := i*refetchCols + j
				v[x] = 0.25 * (u[x-refetchCols] + u[x+refetchCols] + u[x-1] + u[x+1])
			}
		}
		u, v = v, u
	}
	// Rank 0's sweep with its grids in the cache, and its integer rate;
	// the fastest of a few, as the lockstep suite's rate.
	best := 0.0
	for i := range 6 {
		t0 := mpi.Wtime()
		sweep()
		if t := mpi.Wtime() - t0; i > 0 && (best == 0 || t < best) {
			best = t
		}
	}
	info := []float64{best, workRate(), float64(cacheBytes(2))}
	mpi.Bcast(c, info, 0)
	tSweep, rate, cache := info[0], info[1], info[2]
	rounds := int(tSweep * rate)
	next, prev := (c.Rank()+1)%k, (c.Rank()+k-1)%k
	send, recv := make([]byte, lockstepBytes), make([]byte, lockstepBytes)
	local, global := []float64{1}, []float64{0}
	exchange := func() {
		mpi.Sendrecv(c, send, next, tagLockstep, recv, prev, tagLockstep)
		mpi.Sendrecv(c, send, prev, tagLockstep, recv, next, tagLockstep)
		mpi.Allreduce(c, local, global, mpi.Max)
	}
	steps := max(20, int(o.LockstepTime/(float64(k)*tSweep/float64(cores))))
	timed := func(compute func()) float64 {
		c.Barrier()
		t0 := mpi.Wtime()
		for range steps {
			compute()
			exchange()
		}
		c.Barrier()
		t := []float64{mpi.Wtime() - t0}
		mpi.Bcast(c, t, 0)
		return t[0]
	}
	var memBest, intBest float64
	for run := range refetchRuns {
		m := timed(sweep)
		n := timed(func() { work(rounds) })
		if run == 0 || m < memBest {
			memBest = m
		}
		if run == 0 || n < intBest {
			intBest = n
		}
		progress(fmt.Sprintf("refetch %d ranks, run %d of %d", k, run+1, refetchRuns))
	}
	ws := float64(2 * 8 * refetchRows * refetchCols)
	extra := (memBest - intBest) / float64(steps)
	row := Row{Kind: "refetch", Label: fmt.Sprintf("Refetch stencil %dKiB", int(ws)/1024), Bytes: int(ws), Ranks: k, Cache: int64(cache),
		Stats: Stats{Launches: refetchRuns, Valid: refetchRuns, Trimmed: refetchRuns, Mean: extra, Min: extra, Max: extra}}
	if extra > 0 {
		row.Ratio = float64(k) * ws / (float64(cores) * extra)
	}
	return []Row{row}
}

// cacheBytes is the size of cpu0's level-level data or unified cache as
// Linux tells it, 0 where it does not.
func cacheBytes(level int) int64 {
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	for _, d := range dirs {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(d, name))
			return strings.TrimSpace(string(b))
		}
		if read("level") != strconv.Itoa(level) || read("type") == "Instruction" {
			continue
		}
		size := read("size")
		mult := int64(1)
		switch {
		case strings.HasSuffix(size, "K"):
			mult, size = 1<<10, strings.TrimSuffix(size, "K")
		case strings.HasSuffix(size, "M"):
			mult, size = 1<<20, strings.TrimSuffix(size, "M")
		}
		if n, err := strconv.ParseInt(size, 10, 64); err == nil && n > 0 {
			return n * mult
		}
	}
	return 0
}
