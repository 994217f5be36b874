//go:build openmpi || mpich

package probe

import "github.com/parpredict/parpredict/mpi"

// mainNP is the rank count Main starts, as mpi.Main counts it: under MPI
// the job's size, whatever -np says.
func mainNP() (int, error) { return mpi.JobSize() }

// localRanks is how many of the np ranks run in this process: one, each
// rank being a process of the MPI job.
func localRanks(int) int { return 1 }
