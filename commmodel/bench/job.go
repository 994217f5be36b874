package bench

import (
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"time"

	"github.com/parpredict/parpredict/mpi"
)

// ErrOtherRank is what Calibrate returns on every process of an MPI job but
// world rank 0, which alone holds the results (and writes the files).
var ErrOtherRank = errors.New("bench: not world rank 0 of the MPI job: rank 0 has the results")

// shape is how one calibration uses its ranks: a single run of size ranks
// in which each suite runs on the first ranks it needs while the others
// wait (see part).
type shape struct {
	size  int // ranks of the run: the MPI job, or as many as the suites need
	np    int // ping-pong and collectives
	pairs int // contention for cf = 1..pairs
	notes []string
}

// plan fits the options to the job: job is the MPI job's process count (0
// with the goroutine backend, which starts as many ranks as asked). Under
// MPI, NP 0 means the whole job; contention is cut to the pairs the job
// holds, and skipped (with a note) when that leaves fewer than the two
// pairs a ratio needs.
func (o Options) plan(job, cores int) (shape, error) {
	s := shape{np: o.NP, pairs: o.ContentionPairs}
	if job == 0 {
		if s.np == 0 {
			s.np = 2
		}
		// Ranks beyond the cores let the lockstep suite measure
		// oversubscribed nodes (lockstepRanks).
		s.size = max(s.np, 2*s.pairs, oversubscribed*cores)
		return s, nil
	}
	if s.np == 0 {
		s.np = job
	}
	if s.np > job {
		return s, fmt.Errorf("bench: %d ranks asked for ping-pong and collectives, but the MPI job has %d processes (start it with mpirun -np %d)", s.np, job, s.np)
	}
	if 2*s.pairs > job {
		fit := job / 2
		if fit < 2 {
			s.notes = append(s.notes, fmt.Sprintf("contention not measured: %d concurrent pairs need %d processes, the MPI job has %d (start it with mpirun -np %d)", s.pairs, 2*s.pairs, job, 2*s.pairs))
			fit = 0
		} else {
			s.notes = append(s.notes, fmt.Sprintf("contention measured for cf = 1..%d only: the MPI job has %d processes, cf = %d needs %d", fit, job, s.pairs, 2*s.pairs))
		}
		s.pairs = fit
	}
	s.size = job
	return s, nil
}

// computeRanks is how many ranks the compute suite runs on: the leading
// ranks of the run that share rank 0's host (the slowdown is that of ranks
// on one node), at most one per core.
func computeRanks(hosts []uint64, cores int) int {
	n := 0
	for n < len(hosts) && hosts[n] == hosts[0] && n < cores {
		n++
	}
	return n
}

// distinct counts the different values of ids.
func distinct(ids []uint64) int {
	seen := map[uint64]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	return len(seen)
}

// hostIDs gives every rank a hash of each rank's host name (all equal with
// the goroutine backend).
func hostIDs(c *mpi.Comm) []uint64 {
	name, _ := os.Hostname()
	h := fnv.New64a()
	h.Write([]byte(name))
	all := make([]uint64, c.Size())
	mpi.Allgather(c, []uint64{h.Sum64()}, all)
	return all
}

const tagIdle = tagPing + 1

// part runs body on a communicator of world's first n ranks. The other
// ranks wait for world rank 0's word that the part is over, polling every
// millisecond and sleeping between polls: an MPI library spins in a
// blocking call, and on an oversubscribed node idle ranks spinning would
// take the cores from the ranks being measured.
func part(world *mpi.Comm, n int, body func(*mpi.Comm)) {
	r := world.Rank()
	color := 1
	if r < n {
		color = 0
	}
	c := world.Split(color, r)
	word := make([]byte, 1)
	if r < n {
		body(c)
		if r == 0 {
			for i := n; i < world.Size(); i++ {
				mpi.Send(world, word, i, tagIdle)
			}
		}
		return
	}
	req := mpi.Irecv(world, word, 0, tagIdle)
	for {
		if _, done := req.Test(); done {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
