package probe

import (
	"os"
	"strconv"
	"strings"
)

// RankPlaceholder in $PARPREDICT_PROBE_OUT stands for the process's world
// rank: under a launcher (mpirun) every process writes its own counters,
// and the profiler merges the files.
const RankPlaceholder = "{rank}"

// rankEnv are the variables launchers set to a process's rank in the job:
// Open MPI's mpirun, PMIx (Open MPI 5, Slurm's srun --mpi=pmix), and
// MPICH's Hydra or srun with PMI-1/2.
var rankEnv = []string{"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}

// WorldRank is this process's rank in the job its launcher started, from
// the launcher's environment; 0 for a process started on its own (and
// for every rank of the goroutine backend, which share the process).
func WorldRank() int {
	for _, v := range rankEnv {
		if r, err := strconv.Atoi(os.Getenv(v)); err == nil && r >= 0 {
			return r
		}
	}
	return 0
}

// outPath is the file this process writes its counters to: path with
// RankPlaceholder replaced by the world rank.
func outPath(path string) string {
	return strings.ReplaceAll(path, RankPlaceholder, strconv.Itoa(WorldRank()))
}
