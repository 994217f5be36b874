//go:build mpich && !openmpi

package bench

import "github.com/parpredict/parpredict/commmodel"

const backendName = "mpi MPICH backend (one process per rank, under mpirun)"

// backendRules name the collective algorithms this backend uses.
const backendRules = commmodel.RulesMPICH
