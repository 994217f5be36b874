package mpi

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
)

// Environment variables read by NP and Main.
const (
	EnvNP    = "PARPREDICT_NP"
	EnvTrace = "PARPREDICT_TRACE"
	// EnvTraceSample, set to anything, samples the MPI calls of a trace
	// (interval marks are always recorded): after the first 256 calls of
	// a rank each recorded event stands for W calls, W doubling every 256
	// recorded. The profiler uses it for MPI time per call site at a
	// bounded cost; a sampled trace is not a timeline.
	EnvTraceSample = "PARPREDICT_TRACE_SAMPLE"
	// EnvTraceIntervals, set to anything, records only the interval marks
	// (BeginInterval, EndInterval): predict validate times a run's main
	// loop that way without slowing its MPI calls down.
	EnvTraceIntervals = "PARPREDICT_TRACE_INTERVALS"
)

var (
	npFlag    = flag.Int("np", 0, "number of MPI ranks (default $"+EnvNP+", else 1)")
	traceFlag = flag.String("mpitrace", "", "write an MPI trace of the run to this file (default $"+EnvTrace+")")
)

// Options configure Launch.
type Options struct {
	NP    int  // rank count, >= 1; under mpirun the first NP ranks of the job run the body, and NP may not exceed the job's size
	Trace bool // record a Trace
}

// NP is the rank count Main will start: the -np flag if set, else
// $PARPREDICT_NP, else 1. Call it after flag.Parse.
func NP() int {
	if *npFlag > 0 {
		return *npFlag
	}
	if v := os.Getenv(EnvNP); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			return n
		}
	}
	return 1
}

// Run starts np ranks, calls body on each, and waits for them. It returns
// the first failure: a *DeadlockError, *TruncationError, *RankError or
// *AbortError.
func Run(np int, body func(*Comm)) error {
	_, err := Launch(Options{NP: np}, body)
	return err
}

// Launch is Run with options; with Options.Trace it also returns the run's
// trace (also when the run failed, holding what was recorded).
func Launch(opts Options, body func(*Comm)) (*Trace, error) {
	if opts.NP < 1 {
		return nil, fmt.Errorf("mpi: rank count %d: need at least 1", opts.NP)
	}
	return launch(opts, body)
}

// Finalize shuts the MPI library down (MPI_Finalize) under the Open MPI
// backend; no run may start after it. Main calls it; a program or test that
// calls Run or Launch itself calls Finalize once after its last run. It does
// nothing with the goroutine backend.
func Finalize() { finalize() }

// Main parses the command line if the program has not, starts NP() ranks
// (under mpirun: one per process of the job) running body, writes the trace
// if one was asked for, and exits the process with a non-zero status (after
// a report on stderr) if any rank failed. It returns only on success.
func Main(body func(*Comm)) {
	if !flag.Parsed() {
		flag.Parse()
	}
	tracePath := *traceFlag
	if tracePath == "" {
		tracePath = os.Getenv(EnvTrace)
	}
	tr, err := Launch(Options{NP: mainNP(), Trace: tracePath != ""}, body)
	finalize()
	if tr != nil && tracePath != "" {
		if werr := writeTrace(tr, tracePath); werr != nil {
			fmt.Fprintln(os.Stderr, werr)
			if err == nil {
				os.Exit(1)
			}
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "mpi: %v\n", err)
		var abort *AbortError
		if errors.As(err, &abort) && abort.Code != 0 {
			os.Exit(abort.Code)
		}
		os.Exit(1)
	}
}
