package profiler

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/parpredict/parpredict/profiler/probe"
)

// NPPlaceholder in Options.Launcher stands for the rank count of each run
// (the profiled run's NP, each PPN entry's k).
const NPPlaceholder = "{np}"

// launcherArgv is the launcher's command line for a run of np ranks.
func launcherArgv(launcher []string, np int) []string {
	out := make([]string, len(launcher))
	for i, a := range launcher {
		out[i] = strings.ReplaceAll(a, NPPlaceholder, strconv.Itoa(np))
	}
	return out
}

// launcherHasNP reports whether the launcher's command line sets the rank
// count from the run's (else it starts a fixed number of processes).
func launcherHasNP(launcher []string) bool {
	for _, a := range launcher {
		if strings.Contains(a, NPPlaceholder) {
			return true
		}
	}
	return false
}

// readRankCounts reads the counters each process of a launcher run wrote:
// pattern with probe.RankPlaceholder replaced by 0, 1, ... until a rank
// has no file. want > 0 is the rank count the run must have had.
func readRankCounts(pattern string, want int) ([]*probe.Counts, error) {
	var all []*probe.Counts
	for r := 0; ; r++ {
		path := strings.ReplaceAll(pattern, probe.RankPlaceholder, strconv.Itoa(r))
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("profiler: reading the counters of rank %d: %w", r, err)
		}
		var c probe.Counts
		if err := json.Unmarshal(data, &c); err != nil {
			return nil, fmt.Errorf("profiler: reading the counters of rank %d: %w", r, err)
		}
		if c.Rank != r {
			return nil, fmt.Errorf("profiler: the counters file of rank %d says rank %d: the launcher does not set OMPI_COMM_WORLD_RANK, PMIX_RANK or PMI_RANK", r, c.Rank)
		}
		all = append(all, &c)
	}
	switch {
	case len(all) == 0:
		return nil, errors.New("profiler: no process of the launcher wrote counters (did it exit through a path that skips main's return, such as log.Fatal or a panic?)")
	case want > 0 && len(all) != want:
		return nil, fmt.Errorf("profiler: the launcher started %d processes, the run wants %d ranks: write -np %s in --launcher or give --np %d", len(all), want, NPPlaceholder, len(all))
	}
	return all, nil
}

// mergeRankCounts combines the counters of the processes of one launcher
// run into what the goroutine backend's single process would have counted:
// regions the ranks run (rank bodies and what they call) sum over
// processes, as the ranks' goroutines share one counter; regions every
// process runs once for itself (main outside the rank body, init, and
// functions only they call) take rank 0's counts, as the goroutine
// backend runs them once. Costs come from rank 0, the one process that
// calibrates. MPI's start-up and shut-down inside main are the backend's
// cost, which the goroutine backend does not have: rank 0's StartNs and
// the smallest EndNs of any process (the last rank to finish waits for no
// other, so its EndNs is the trace gathering and MPI_Finalize alone) are
// taken out of main's time and the wall time; waiting for slower ranks
// stays in them, as with the goroutine backend.
func mergeRankCounts(in *Instrumented, per []*probe.Counts) *probe.Counts {
	root := per[0]
	out := &probe.Counts{Costs: root.Costs, TraceNs: root.TraceNs, StartNs: root.StartNs, EndNs: root.EndNs, Rank: 0}
	n := 0
	for _, c := range per {
		n = max(n, len(c.Regions))
		out.WallNs = max(out.WallNs, c.WallNs)
		out.EndNs = min(out.EndNs, c.EndNs)
	}
	backend := out.StartNs + out.EndNs
	out.WallNs -= backend
	once := processRegions(in)
	out.Regions = make([]probe.RegionCounts, n)
	for k := range out.Regions {
		if once[k] {
			if k < len(root.Regions) {
				out.Regions[k] = root.Regions[k]
			}
			continue
		}
		for _, c := range per {
			if k < len(c.Regions) {
				addRegionCounts(&out.Regions[k], c.Regions[k])
			}
		}
	}
	for _, r := range in.Regions {
		if isEntry(r) && r.decl.Name() == "main" && r.Index < n {
			out.Regions[r.Index].Ns = max(out.Regions[r.Index].Ns-backend, 0)
		}
	}
	return out
}

// addRegionCounts adds one process's counters of a region to a sum.
func addRegionCounts(sum *probe.RegionCounts, c probe.RegionCounts) {
	if c.Execs > 0 {
		if sum.Execs == 0 {
			sum.MinIter = c.MinIter
		} else {
			sum.MinIter = min(sum.MinIter, c.MinIter)
		}
	}
	sum.Execs += c.Execs
	sum.Iters += c.Iters
	sum.Ns += c.Ns
	sum.MaxIter = max(sum.MaxIter, c.MaxIter)
	sum.SqIter += c.SqIter
	sum.Timed = sum.Timed || c.Timed
	for i, t := range c.RankTrips {
		for len(sum.RankTrips) <= i {
			sum.RankTrips = append(sum.RankTrips, probe.TripCounts{})
		}
		sum.RankTrips[i].Add(t)
	}
	for i := range c.VecCnt {
		if i == len(sum.VecCnt) {
			sum.VecNs, sum.VecCnt = append(sum.VecNs, 0), append(sum.VecCnt, 0)
		}
		sum.VecNs[i] += c.VecNs[i]
		sum.VecCnt[i] += c.VecCnt[i]
	}
}

// processRegions marks the regions each process runs for itself rather
// than once per rank: main's and init's bodies, what they hold outside a
// rank body, and the bodies of functions called only from such regions.
func processRegions(in *Instrumented) map[int]bool {
	once := map[int]bool{}
	for _, r := range in.Regions {
		if isEntry(r) {
			once[r.Index] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, r := range in.Regions {
			if once[r.Index] || r.rank {
				continue
			}
			mark := r.Parent >= 0 && once[r.Parent]
			if !mark && r.declBody && r.decl != nil {
				if u := in.uses[r.decl]; u != nil && !u.byValue && len(u.sites) > 0 {
					mark = true
					for _, s := range u.sites {
						if s < 0 || !once[s] {
							mark = false
							break
						}
					}
				}
			}
			if mark {
				once[r.Index] = true
				changed = true
			}
		}
	}
	return once
}
