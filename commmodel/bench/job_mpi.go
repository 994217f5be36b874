//go:build openmpi || mpich

package bench

import "github.com/parpredict/parpredict/mpi"

// jobSize is the MPI job's process count: a calibration runs on all of
// them, and only world rank 0 keeps the results.
func jobSize() (int, error) { return mpi.JobSize() }
