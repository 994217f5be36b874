//go:build !openmpi && !mpich

package probe

import "github.com/parpredict/parpredict/mpi"

// mainNP is the rank count Main starts, as mpi.Main counts it: -np or
// $PARPREDICT_NP with the goroutine backend.
func mainNP() (int, error) { return mpi.NP(), nil }

// localRanks is how many of the np ranks run in this process: all of
// them, as goroutines.
func localRanks(np int) int { return np }
