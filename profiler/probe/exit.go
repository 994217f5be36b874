package probe

import (
	"errors"
	"flag"
	"fmt"
	"os"
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
// for and so subtracts from main's own time.
var traceNs atomic.Int64

// Main behaves as mpi.Main (parse flags, start NP ranks, write the trace,
// report a failure and exit non-zero) but flushes the counters before any
// exit. The instrumented copy calls it in place of mpi.Main.
func Main(body func(*mpi.Comm)) {
	if !flag.Parsed() {
		flag.Parse()
	}
	tracePath := os.Getenv(mpi.EnvTrace)
	if f := flag.Lookup("mpitrace"); f != nil && f.Value.String() != "" {
		tracePath = f.Value.String()
	}
	tr, err := mpi.Launch(mpi.Options{NP: mpi.NP(), Trace: tracePath != ""}, body)
	if tr != nil && tracePath != "" {
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
