//go:build !openmpi && !mpich

package bench

import "github.com/parpredict/parpredict/commmodel"

// jobSize is 0 with the goroutine backend: a run can have any number of
// ranks, all in this process.
func jobSize() (int, error) { return 0, nil }

const backendName = "mpi goroutine backend (ranks share one process)"

// backendRules name the collective algorithms this backend uses.
const backendRules = commmodel.RulesGoroutine
