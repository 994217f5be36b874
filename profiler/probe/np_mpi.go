//go:build openmpi || mpich

package probe

import "github.com/parpredict/parpredict/mpi"

// mainNP is the rank count Main starts, as mpi.Main counts it: under MPI
// the job's size, whatever -np says.
func mainNP() (int, error) { return mpi.JobSize() }
