package probe

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/parpredict/parpredict/mpi"
)

// Exit flushes the counters and exits; the instrumented copy calls it in
// place of os.Exit, which would skip the deferred Flush in main.
func Exit(code int) {
	Flush()
	os.Exit(code)
}

// traceNs is the time spent writing the trace, which the profiler asks
// for and so subtracts from main's own time; startNs is the time from
// Main's call of mpi.Launch to the start of this process's first rank
// body, endNs from the end of its last rank body to the return of
// mpi.Finalize.
var traceNs, startNs, endNs atomic.Int64

// Main behaves as mpi.Main (parse flags, start the ranks, write the trace,
// shut MPI down, report a failure and exit non-zero) but flushes the
// counters before any exit. The instrumented copy calls it in place of
// mpi.Main. Under MPI every rank holds the gathered trace and world rank 0
// alone writes it, as mpi.Main does.
func Main(body func(*mpi.Comm)) {
	if !flag.Parsed() {
		flag.Parse()
	}
	tracePath := os.Getenv(mpi.EnvTrace)
	if f := flag.Lookup("mpitrace"); f != nil && f.Value.String() != "" {
		tracePath = f.Value.String()
	}
	t0 := Now()
	np, err := mainNP()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		Exit(1)
	}
	// One rank in this process: no other goroutine updates the counters
	// from here on (the rank starts after this write; the flush and the
	// probes' calibration come after it ends).
	exclusive = localRanks(np) == 1
	var once sync.Once
	var bodyEnd atomic.Int64
	tr, err := mpi.Launch(mpi.Options{NP: np, Trace: tracePath != ""}, func(c *mpi.Comm) {
		once.Do(func() { startNs.Store(Now() - t0) })
		registerRank(c.Rank())
		body(c)
		for t := Now(); ; {
			if old := bodyEnd.Load(); t <= old || bodyEnd.CompareAndSwap(old, t) {
				break
			}
		}
	})
	mpi.Finalize()
	if e := bodyEnd.Load(); e > 0 {
		endNs.Store(Now() - e)
	}
	if tr != nil && tracePath != "" && WorldRank() == 0 {
		t0 := Now()
		werr := tr.WriteFile(tracePath)
		traceNs.Add(Now() - t0)
		if werr != nil {
			fmt.Fprintln(os.Stderr, werr)
			if err == nil {
				Exit(1)
			}
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "mpi: %v\n", err)
		var abort *mpi.AbortError
		if errors.As(err, &abort) && abort.Code != 0 {
			Exit(abort.Code)
		}
		Exit(1)
	}
}
