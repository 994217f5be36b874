//go:build openmpi || mpich

package mpi_test

import (
	"os"
	"testing"

	"github.com/parpredict/parpredict/mpi"
)

// Under MPI the test binary runs once per rank (mpirun -np 9 mpi.test): each
// process runs every test, and mpi.Run(np, ...) runs the body on the first
// np ranks of the job. TestMain finalises MPI after the last test; a
// process started by runScenario runs one failing program instead.
func TestMain(m *testing.M) {
	if s := os.Getenv(envScenario); s != "" {
		runScenario(s)
		return
	}
	code := m.Run()
	mpi.Finalize()
	os.Exit(code)
}

// needRanks skips tb when the MPI job has fewer than np ranks.
func needRanks(tb testing.TB, np int) {
	tb.Helper()
	if _, size := mpi.JobRankSize(); np > size {
		tb.Skipf("needs %d ranks, the MPI job has %d (run under mpirun -np 9)", np, size)
	}
}

// outsideRun reports whether this process is not among the np ranks that
// mpi.Run(np, ...) uses: there Launch returns a nil trace.
func outsideRun(np int) bool {
	rank, _ := mpi.JobRankSize()
	return rank >= np
}

// goroutineOnly skips a test of behaviour that only the goroutine backend
// has: under MPI a failing rank aborts the whole job (MPI_Abort) instead of
// returning an error from Run, and a real MPI library cannot detect
// deadlocks. ompi_fail_test.go checks the abort reports in child processes.
func goroutineOnly(t *testing.T, why string) {
	t.Helper()
	t.Skip("goroutine backend only: " + why)
}
