//go:build !openmpi && !mpich

package probe

import "github.com/parpredict/parpredict/mpi"

// mainNP is the rank count Main starts, as mpi.Main counts it: -np or
// $PARPREDICT_NP with the goroutine backend.
func mainNP() (int, error) { return mpi.NP(), nil }
