//go:build !openmpi && !mpich

package mpi

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// The goroutine backend: every rank is a goroutine of this process. One
// mutex per run guards all matching state; that keeps deadlock detection
// exact (a rank blocks only while holding the lock has shown that nothing
// can release it) at the cost of contention this backend can afford.

const backendName = "goroutine"

// errAborted unwinds a rank's goroutine after the run has failed.
var errAborted = errors.New("mpi: run aborted")

// abortGrace is how long Launch waits, after a failure, for ranks that are
// computing (not in an MPI call) to reach their next MPI call and stop.
const abortGrace = 2 * time.Second

type world struct {
	mu      yieldLock
	ranks   []*rankState
	live    int // ranks still running the body
	blocked int // live ranks blocked in an MPI call
	failure error
	nextCtx int // next free communicator context id (even: point-to-point; odd: its collectives)
}

// rankState is the matching state of one world rank.
type rankState struct {
	w          *world
	rank       int
	cond       *sync.Cond
	unexpected []*message    // arrived, not yet matched, in arrival order
	posted     []*reqBackend // posted receives, not yet matched, in post order
	blocked    bool
	waitingOn  []*reqBackend
	waitOp     opDesc
	waitSite   string
	done       bool
	// completions counts completed receives of this rank (and failures),
	// for a rank polling without the world's lock (spinLocked).
	completions atomic.Uint64
}

type message struct {
	ctx, src, tag int // src: the sender's rank in the communicator
	srcWorld      int
	data          []byte
}

// commBackend is a communicator as seen by one rank.
type commBackend struct {
	w       *world
	rs      *rankState // the calling rank
	ctx     int        // point-to-point context; collectives use ctx+1
	rank    int
	members []int // communicator rank -> world rank
}

func launch(opts Options, body func(*Comm)) (*Trace, error) {
	w := &world{live: opts.NP, nextCtx: 2}
	var tr *Trace
	if opts.Trace {
		tr = newTrace(backendName, opts.NP)
		tr.Ranks = make([]RankTrace, opts.NP)
	}
	members := make([]int, opts.NP)
	for r := range members {
		members[r] = r
	}
	comms := make([]*Comm, opts.NP)
	for r := range opts.NP {
		rs := &rankState{w: w, rank: r}
		rs.cond = sync.NewCond(&w.mu)
		w.ranks = append(w.ranks, rs)
		c := &Comm{rank: r, size: opts.NP, worldRank: r,
			b: &commBackend{w: w, rs: rs, ctx: 0, rank: r, members: members}}
		if opts.Trace {
			c.tr = newRankTrace(r)
		}
		comms[r] = c
	}
	var wg sync.WaitGroup
	allDone := make(chan struct{})
	spans := make([][2]float64, opts.NP) // each rank's body: start, finish
	for _, c := range comms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer w.rankFinished(c.b.rs)
			defer func() {
				if v := recover(); v != nil && v != errAborted {
					w.fail(&RankError{Rank: c.worldRank, Msg: fmt.Sprintf("panic: %v", v), Stack: string(debug.Stack())})
				}
			}()
			if c.tr != nil {
				// Under the world's lock: a failed run reads them while
				// a late rank may still be running.
				mark := func(i int) {
					t := Wtime()
					w.mu.Lock()
					spans[c.worldRank][i] = t
					w.mu.Unlock()
				}
				mark(0)
				defer mark(1)
			}
			body(c)
		}()
	}
	go func() { wg.Wait(); close(allDone) }()
	select {
	case <-allDone:
	case <-w.failed():
		select {
		case <-allDone:
		case <-time.After(abortGrace):
		}
	}
	w.mu.Lock()
	err := w.failure
	if tr != nil {
		for r, c := range comms {
			tr.Ranks[r] = RankTrace{Rank: r, Events: c.tr.events(), Start: spans[r][0], Finish: spans[r][1], Values: c.tr.siteValues()}
		}
	}
	w.mu.Unlock()
	return tr, err
}

// failed returns a channel closed once the run has failed. It polls, which
// is fine: it is only consulted while waiting for the ranks to end.
func (w *world) failed() <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		for {
			w.mu.Lock()
			f := w.failure != nil
			done := w.live == 0
			w.mu.Unlock()
			if f {
				close(ch)
				return
			}
			if done {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return ch
}

// fail records the run's first failure and wakes every blocked rank so that
// it unwinds.
func (w *world) fail(err error) {
	w.mu.Lock()
	w.failLocked(err)
	w.mu.Unlock()
}

func (w *world) failLocked(err error) {
	if w.failure == nil {
		w.failure = err
	}
	for _, rs := range w.ranks {
		rs.completions.Add(1)
		rs.cond.Signal()
	}
}

func (w *world) rankFinished(rs *rankState) {
	w.mu.Lock()
	defer w.mu.Unlock()
	rs.done = true
	w.live--
	w.checkDeadlockLocked()
}

// checkDeadlockLocked fails the run if every live rank is blocked. Sends
// never block in this backend, so a blocked rank can only be released by
// another rank's future send, which cannot happen.
func (w *world) checkDeadlockLocked() {
	if w.failure != nil || w.live == 0 || w.blocked < w.live {
		return
	}
	d := &DeadlockError{}
	for _, rs := range w.ranks {
		switch {
		case rs.blocked:
			d.Blocked = append(d.Blocked, BlockedRank{Rank: rs.rank, Op: rs.waitOp.String(), Site: rs.waitSite})
		case rs.done:
			d.Finished = append(d.Finished, rs.rank)
		}
	}
	sort.Slice(d.Blocked, func(i, j int) bool { return d.Blocked[i].Rank < d.Blocked[j].Rank })
	w.failLocked(d)
}

// fail stops the run with err from the calling rank. It never returns.
func (b *commBackend) fail(err error) {
	b.w.fail(err)
	panic(errAborted)
}

func writeTrace(tr *Trace, path string) error { return tr.WriteFile(path) }

// mainNP is the rank count Main starts: NP().
func mainNP() int { return NP() }

// finalize has nothing to release in this backend.
func finalize() {}
