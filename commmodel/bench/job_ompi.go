//go:build openmpi

package bench

import "github.com/parpredict/parpredict/commmodel"

const backendName = "mpi Open MPI backend (one process per rank, under mpirun)"

// backendRules name the collective algorithms this backend uses.
const backendRules = commmodel.RulesOpenMPI
