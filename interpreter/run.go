package interpreter

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Program is one rank's behaviour. The simulator calls Step first with a
// zero Result, then after each operation completes; Step returns the
// compute time (seconds) the rank spends before its next operation, and
// that operation (OpFinish to end).
type Program interface {
	Step(prev Result) (compute float64, next Op, err error)
}

// Options configure Simulate.
type Options struct {
	Timeline bool     // record per-rank segments (memory grows with the run)
	Sharing  *Sharing // ranks share their node's cores (oversubscribed nodes)
	// Noise, when set, turns each stretch of a rank's computation between
	// two MPI calls, modelled as t, into the time it takes with the
	// machine's detours (commmodel.Noise.Perturb), drawing from the rank's
	// own generator: ranks are interrupted at different times, and every
	// synchronisation waits for the one interrupted last.
	Noise func(t float64, rng *rand.Rand) float64
	// NoiseSeed seeds the ranks' generators (rank r's from NoiseSeed and
	// r), so that a simulation is the same every time.
	NoiseSeed uint64
	// Lockstep, when set, stretches each rank's compute while it
	// synchronises with the others (see Lockstep).
	Lockstep *Lockstep
	// Node, when set, is the node of each rank: a rank that computes on
	// after the other ranks of its node have finished is priced, where
	// its program is a Soloist, as a rank alone on its node.
	Node []int
	// RendezvousWait, when positive, makes a rendezvous send whose receive
	// is not posted within it an eager one (the machine's
	// rendezvous_wait: the goroutine backend buffers the message then);
	// 0: it waits for its receive for good.
	RendezvousWait float64
	// Progress, when set, is called every ProgressEvery operations with
	// the operations simulated so far and the virtual time reached: a
	// simulation of thousands of ranks can run for minutes.
	Progress func(ops int64, now float64)
}

// ProgressEvery is how many operations pass between calls of
// Options.Progress: a fraction of a second of simulation.
const ProgressEvery = 1 << 16

// Lockstep stretches a rank's compute between its first MPI operation and
// its Last[rank]-th by Factor: ranks that wake each other every few
// microseconds progress as if on fewer cores than they have (the
// machine's lockstep table), while what a rank computes before its first
// operation (setting up) or after its last (checking a result alone) runs
// at full speed.
type Lockstep struct {
	Factor float64
	Last   []int // per rank, its operations in an earlier simulation of the same configuration
}

// SegmentKind classifies a stretch of a rank's time.
type SegmentKind uint8

// Segment kinds: computing, busy in MPI (overheads), waiting in MPI.
const (
	Compute SegmentKind = iota
	Comm
	Wait
)

func (k SegmentKind) String() string { return [...]string{"compute", "mpi", "wait"}[k] }

// Segment is one stretch of a rank's timeline.
type Segment struct {
	Kind       SegmentKind
	Start, End float64
	Op         OpKind // Comm and Wait segments
	// Site is the call site of a Comm or Wait segment's MPI call, or the
	// model region that took most of a Compute segment (when the oracle
	// names regions).
	Site string
	// Group is the id of the communicator of a Comm or Wait segment's
	// operation: 0 for the world, else that of a Group Split made.
	Group int
}

// RankStats are one rank's totals, in seconds.
type RankStats struct {
	Finish  float64 // the rank's clock when it finished
	Compute float64
	Comm    float64 // MPI overheads: time the rank's CPU spends in MPI
	Wait    float64 // time blocked in MPI
	Ops     int     // MPI operations the rank started (user-level calls)
	// Between is the Compute between the rank's first and last MPI
	// operation: its compute while it synchronises with others, without
	// what it computes before (setting up) and after (checking a result).
	Between float64
	Sent    int // messages sent, collectives' internal messages included
	Bytes   int // bytes sent
}

// Run is the result of a simulation.
type Run struct {
	Makespan  float64 // the latest finish time
	Ranks     []RankStats
	Timelines [][]Segment // per rank, when Options.Timeline
	Marks     [][]Mark    // per rank, the interval marks in order
	Ops       int64       // MPI operations simulated (user-level calls)
	Messages  int64       // point-to-point messages, collectives' included
	// AllToAll counts the Ops that exchange with every other rank
	// (Alltoall and Alltoallv): their ranks synchronise all at once.
	AllToAll int64
	// Notes are what the network said about its model of this run (a
	// Noter's notes: a collective too large to schedule costed another
	// way), sorted.
	Notes []string
}

// Mark is a user interval's begin or end on one rank, at virtual time T.
type Mark struct {
	ID    int
	Begin bool
	T     float64
}

// Interval returns the span of the first occurrence of interval id: from
// the earliest rank's begin to the latest rank's end. ok is false if no
// rank marked it.
func (r *Run) Interval(id int) (span float64, ok bool) {
	first, last := 0.0, 0.0
	for _, marks := range r.Marks {
		began := false
		for _, m := range marks {
			if m.ID != id {
				continue
			}
			if m.Begin && !began {
				if !ok || m.T < first {
					first = m.T
				}
				began = true
			} else if !m.Begin && began {
				if !ok || m.T > last {
					last = m.T
				}
				ok = true
				break
			}
		}
	}
	return last - first, ok
}

// BlockedRank is one rank's part of a deadlock report.
type BlockedRank struct {
	Rank  int
	Op    string
	Site  string
	Since float64 // virtual time the rank blocked
	// Send is set for a blocking Send, which only a rendezvous holds up:
	// its message is above the machine's eager limit.
	Send bool
}

// DeadlockError reports that every live rank is blocked with no message in
// flight that could release any of them.
type DeadlockError struct {
	Blocked  []BlockedRank
	Finished int // ranks that had finished
	// Guessed says, when a rank decided branches on data the interpreter
	// does not know by their profiled frequencies, where: ranks whose
	// partners follow such guesses can wait for each other where the
	// program does not.
	Guessed string
}

func (e *DeadlockError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "interpreter: deadlock: every live rank is blocked (%d finished)", e.Finished)
	for _, r := range e.Blocked {
		fmt.Fprintf(&b, "\n  rank %d waits in %s", r.Rank, r.Op)
		if r.Site != "" {
			fmt.Fprintf(&b, " at %s", r.Site)
		}
		fmt.Fprintf(&b, " since t=%.6gs", r.Since)
	}
	for _, r := range e.Blocked {
		if r.Send {
			b.WriteString("\n  a blocking Send of a message above the machine's eager limit waits for its matching receive (rendezvous, as MPI libraries send large messages), " +
				"so ranks that all send before they receive wait for each other; exchange with Sendrecv, or Isend and Irecv then Waitall " +
				"(the goroutine backend buffers such a message after waiting half a millisecond, so the program may run there and still hang under an MPI library)")
			break
		}
	}
	if e.Guessed != "" {
		b.WriteString("\n  the deadlock may be the interpreter's, not the program's" + e.Guessed)
	}
	return b.String()
}

// RankError is a failure of one rank's program or of one of its operations.
type RankError struct {
	Rank int
	Site string
	Err  error
}

func (e *RankError) Error() string {
	if e.Site != "" {
		return fmt.Sprintf("interpreter: rank %d at %s: %v", e.Rank, e.Site, e.Err)
	}
	return fmt.Sprintf("interpreter: rank %d: %v", e.Rank, e.Err)
}

func (e *RankError) Unwrap() error { return e.Err }
