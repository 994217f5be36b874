//go:build openmpi || mpich

package mpi

// #include "ompi_helpers.h"
import "C"

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"time"
	"unsafe"
)

// The MPI backend: one process per rank, started by mpirun (or srun). MPI is
// initialised once per process, on the first Launch (or Main), with
// MPI_THREAD_SERIALIZED: a run's body executes on one goroutine locked to
// its OS thread, and nothing else calls MPI meanwhile.

var mpiWorld struct {
	once       sync.Once
	err        error
	rank, size int
	finalized  bool
}

// initMPI starts the MPI library and aligns Wtime's epoch with world rank
// 0's, so that the ranks' trace times are comparable.
func initMPI() error {
	w := &mpiWorld
	w.once.Do(func() {
		limit, err := watchdogLimit()
		if err != nil {
			w.err = err
			return
		}
		var provided C.int
		if rc := C.pp_init(&provided); rc != 0 {
			w.err = fmt.Errorf("mpi: MPI_Init_thread: %s", errorString(rc))
			return
		}
		if provided < C.MPI_THREAD_SERIALIZED {
			w.err = fmt.Errorf("mpi: the MPI library gives thread level %d, need MPI_THREAD_SERIALIZED", int(provided))
			return
		}
		var r, s C.int
		C.pp_comm_rank(0, &r)
		C.pp_comm_size(0, &s)
		w.rank, w.size = int(r), int(s)
		startWatchdog(w.rank, limit)
		start := []int64{epoch.UnixNano()}
		if rc := C.pp_bcast(unsafe.Pointer(&start[0]), 1, C.int(dtInt64), 0, 0); rc != 0 {
			w.err = fmt.Errorf("mpi: MPI_Bcast of the start time: %s", errorString(rc))
			return
		}
		// Add keeps epoch's monotonic reading: Wtime stays monotonic.
		epoch = epoch.Add(time.Duration(start[0] - epoch.UnixNano()))
	})
	if w.finalized {
		return fmt.Errorf("mpi: Launch after Finalize")
	}
	return w.err
}

// mainNP is the rank count Main starts: the job's size, fixed by mpirun.
func mainNP() int {
	if err := initMPI(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	asked := *npFlag > 0 || os.Getenv(EnvNP) != ""
	if n := NP(); asked && n != mpiWorld.size && mpiWorld.rank == 0 {
		fmt.Fprintf(os.Stderr, "mpi: -np/%s %d ignored: mpirun started %d ranks\n", EnvNP, n, mpiWorld.size)
	}
	return mpiWorld.size
}

// JobSize is the number of processes of the MPI job (the size of
// MPI_COMM_WORLD), initialising MPI if it is not yet: Launch runs up to that
// many ranks. Only the MPI backends have it; a library that must know the
// job's shape (commmodel/bench) calls it from a file built with the same
// tags.
func JobSize() (int, error) {
	if err := initMPI(); err != nil {
		return 0, err
	}
	return mpiWorld.size, nil
}

func finalize() {
	w := &mpiWorld
	if w.finalized {
		return
	}
	w.finalized = true
	C.pp_finalize()
}

// runState is what one Launch owns on one rank: the communicators it
// created and the requests still pending, released when the body returns.
type runState struct {
	comms   []C.int // in creation order
	pending map[*reqBackend]struct{}
}

// commBackend is one rank's handle on an MPI communicator.
type commBackend struct {
	h         C.int // index into the C communicator table
	rank      int
	worldRank int
	run       *runState
}

// launch runs body on the first opts.NP ranks of the job, on a communicator
// of their own, so that messages of one run never match another's. The
// other ranks skip the body and return (nil, nil).
func launch(opts Options, body func(*Comm)) (*Trace, error) {
	if err := initMPI(); err != nil {
		return nil, err
	}
	w := &mpiWorld
	if opts.NP > w.size {
		return nil, fmt.Errorf("mpi: %d ranks asked for, but this job has %d processes (start it with mpirun -np %d)", opts.NP, w.size, opts.NP)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var h C.int
	var rc C.int
	if opts.NP == w.size {
		rc = C.pp_comm_dup(0, &h)
	} else {
		color := C.int(-1)
		if w.rank < opts.NP {
			color = 0
		}
		rc = C.pp_comm_split(0, color, C.int(w.rank), &h)
	}
	if rc != 0 {
		return nil, fmt.Errorf("mpi: creating the run's communicator: %s", errorString(rc))
	}
	if h < 0 {
		return nil, nil
	}
	run := &runState{pending: map[*reqBackend]struct{}{}}
	b := &commBackend{h: h, rank: w.rank, worldRank: w.rank, run: run}
	c := &Comm{rank: w.rank, size: opts.NP, worldRank: w.rank, b: b}
	if opts.Trace {
		c.tr = newRankTrace(w.rank)
	}
	func() {
		defer func() {
			if v := recover(); v != nil {
				b.fail(&RankError{Rank: w.rank, Msg: fmt.Sprintf("panic: %v", v), Stack: string(debug.Stack())})
			}
		}()
		body(c)
	}()
	b.finishRun()
	var tr *Trace
	if opts.Trace {
		tr = b.gatherTrace(opts.NP, c.tr.events())
	}
	for i := len(run.comms) - 1; i >= 0; i-- {
		C.pp_comm_free(run.comms[i])
	}
	C.pp_comm_free(h)
	return tr, nil
}

// finishRun completes the requests the body left pending (an Isend never
// waited for, say), so that their buffers can be unpinned: after a barrier
// every send of a correct program has its receive posted; receives that no
// send will match are cancelled.
func (b *commBackend) finishRun() {
	b.barrier()
	for r := range b.run.pending {
		if _, done := b.test(r); done {
			continue
		}
		if r.isRecv {
			C.pp_cancel(r.h)
		}
		b.wait(r)
	}
}

// gatherTrace gives every rank of the run the events of all ranks.
func (b *commBackend) gatherTrace(np int, events []Event) *Trace {
	data, err := json.Marshal(events)
	if err != nil {
		b.fail(&RankError{Rank: b.worldRank, Op: "trace", Msg: err.Error()})
	}
	sizes := make([]int64, np)
	b.allgather(bytesOf([]int64{int64(len(data))}), bytesOf(sizes), dtInt64)
	counts, displs := make([]C.int, np), make([]C.int, np)
	total := 0
	for r, n := range sizes {
		counts[r], displs[r] = b.count("trace", int(n), 1), b.count("trace", total, 1)
		total += int(n)
	}
	all := make([]byte, total)
	rc := C.pp_allgatherv(ptr(data), C.int(len(data)), ptr(all), &counts[0], &displs[0], C.int(dtUint8), b.h)
	b.check("trace", rc)
	tr := newTrace(backendName, np)
	tr.Ranks = make([]RankTrace, np)
	for r := range np {
		tr.Ranks[r].Rank = r
		part := all[displs[r] : int(displs[r])+int(counts[r])]
		if err := json.Unmarshal(part, &tr.Ranks[r].Events); err != nil {
			b.fail(&RankError{Rank: b.worldRank, Op: "trace", Msg: fmt.Sprintf("events of rank %d: %v", r, err)})
		}
	}
	return tr
}

// writeTrace writes the run's trace from world rank 0 only: every rank of
// the run holds the same gathered trace.
func writeTrace(tr *Trace, path string) error {
	if mpiWorld.rank != 0 {
		return nil
	}
	return tr.WriteFile(path)
}

// fail reports err on stderr and aborts the whole job (MPI_Abort), with the
// code of an AbortError, else 1. It never returns.
func (b *commBackend) fail(err error) {
	msg := fmt.Sprintf("mpi: %v\n", err)
	code := 1
	switch e := err.(type) {
	case *RankError:
		if e.Stack != "" {
			msg += e.Stack
		}
	case *AbortError:
		code = e.Code
		if code == 0 {
			code = 1
		}
	}
	os.Stderr.WriteString(msg)
	C.pp_abort(C.int(code))
	os.Exit(code) // MPI_Abort does not return; this is a backstop.
}

// check fails the run if an MPI call returned an error.
func (b *commBackend) check(op string, rc C.int) {
	if rc != 0 {
		b.fail(&RankError{Rank: b.worldRank, Op: op, Site: callSite(), Msg: "MPI error: " + errorString(rc)})
	}
}

// count converts a byte length into an MPI count of elements of size
// elemSize, failing if it does not fit a C int.
func (b *commBackend) count(op string, bytes, elemSize int) C.int {
	n := bytes / elemSize
	if n > 1<<31-1 {
		b.fail(&RankError{Rank: b.worldRank, Op: op, Site: callSite(), Msg: fmt.Sprintf("%d elements exceed MPI's int count", n)})
	}
	return C.int(n)
}

func errorString(rc C.int) string {
	var buf [256]C.char
	C.pp_error_string(rc, &buf[0], C.int(len(buf)))
	return fmt.Sprintf("%s (code %d)", C.GoString(&buf[0]), int(rc))
}

// ptr is the address of b's first byte, or nil: Go memory without pointers
// may be passed to C for the duration of a call.
func ptr(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }

// elemSize is the byte size of an element of dt.
func elemSize(dt dtype) int {
	return [...]int{1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 8, 16}[dt]
}
