//go:build openmpi || mpich

package mpi

// #include "ompi_helpers.h"
import "C"

import (
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"time"
)

// EnvMPITimeout turns on the watchdog of the MPI backends: a rank that stays
// blocked in one MPI call longer than this duration ("30s", "2m", or
// seconds) reports the call and its site on stderr and aborts the job. MPI
// libraries do not detect deadlocks; this turns a hang into a report.
const EnvMPITimeout = "PARPREDICT_MPI_TIMEOUT"

// watchdogGrace is how long a rank that tripped the watchdog waits before
// aborting, so that the other blocked ranks can report too.
const watchdogGrace = time.Second

var watchdog struct {
	limit time.Duration // 0: off
	cur   atomic.Pointer[blockedCall]
}

// blockedCall is the MPI call the rank is in, while the watchdog is on.
type blockedCall struct {
	opDesc
	since time.Time
	site  string
}

// watchdogLimit reads EnvMPITimeout: 0 when unset.
func watchdogLimit() (time.Duration, error) {
	v := os.Getenv(EnvMPITimeout)
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		s, serr := strconv.ParseFloat(v, 64)
		if serr != nil {
			return 0, fmt.Errorf("mpi: %s=%q: not a duration (30s, 2m) or a number of seconds", EnvMPITimeout, v)
		}
		d = time.Duration(s * float64(time.Second))
	}
	if d <= 0 {
		return 0, fmt.Errorf("mpi: %s=%q: must be positive", EnvMPITimeout, v)
	}
	return d, nil
}

// startWatchdog starts watching the rank's MPI calls if limit > 0.
func startWatchdog(rank int, limit time.Duration) {
	if limit > 0 {
		watchdog.limit = limit
		go watch(rank, limit)
	}
}

func watch(rank int, limit time.Duration) {
	tick := time.NewTicker(max(limit/10, 10*time.Millisecond))
	defer tick.Stop()
	for range tick.C {
		bc := watchdog.cur.Load()
		if bc == nil {
			continue
		}
		if waited := time.Since(bc.since); waited > limit {
			fmt.Fprintf(os.Stderr, "mpi: watchdog: rank %d has waited %.1fs in %v at %s (%s=%v); aborting the job\n",
				rank, waited.Seconds(), bc, bc.site, EnvMPITimeout, limit)
			time.Sleep(watchdogGrace)
			// MPI_Abort from a second thread: outside MPI_THREAD_SERIALIZED,
			// but the rank's own thread is stuck, and aborting is all that
			// is left to do.
			C.pp_abort(1)
			os.Exit(1)
		}
	}
}

func noWatch() {}

func leaveCall() { watchdog.cur.Store(nil) }

// watchCall tells the watchdog that the rank enters a blocking MPI call;
// the returned function, deferred, that it left. With the watchdog off it
// costs one comparison.
func watchCall(op string, peer, root, tag int) func() {
	if watchdog.limit == 0 {
		return noWatch
	}
	watchdog.cur.Store(&blockedCall{opDesc: opDesc{name: op, peer: peer, root: root, tag: tag}, since: time.Now(), site: callSite()})
	return leaveCall
}
