//go:build !openmpi && !mpich

package mpi_test

import "testing"

// These helpers let the same tests run on the MPI backends; see
// ompi_main_test.go.

func needRanks(testing.TB, int) {}

func outsideRun(int) bool { return false }

func goroutineOnly(*testing.T, string) {}
