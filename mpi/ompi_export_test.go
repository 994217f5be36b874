//go:build openmpi || mpich

package mpi

// JobRankSize exposes the MPI job's world rank and size to the external
// tests, which skip rank counts the job cannot run.
func JobRankSize() (rank, size int) {
	if err := initMPI(); err != nil {
		panic(err)
	}
	return mpiWorld.rank, mpiWorld.size
}

// BackendName is the backend's name in traces: "openmpi" or "mpich".
const BackendName = backendName
