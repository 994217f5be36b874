package mpi

import (
	"fmt"
	"strings"
)

// RankError is a failure of one rank: a panic in its code, or an invalid
// argument to an MPI call.
type RankError struct {
	Rank  int
	Op    string // the MPI operation, or "" for a panic in user code
	Site  string // file:line of the call, where known
	Msg   string
	Stack string // goroutine stack of a panic
}

func (e *RankError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "rank %d", e.Rank)
	if e.Op != "" {
		fmt.Fprintf(&b, ": %s", e.Op)
	}
	if e.Site != "" {
		fmt.Fprintf(&b, " at %s", e.Site)
	}
	fmt.Fprintf(&b, ": %s", e.Msg)
	return b.String()
}

// TruncationError reports a message larger than the receive buffer it
// matched: MPI_ERR_TRUNCATE.
type TruncationError struct {
	Receiver, Sender int // world ranks
	Tag              int
	Bytes, Capacity  int    // Bytes is -1 where the MPI library does not report the message size (MPICH)
	Op               string // the receiving operation
	Site             string // its call site, where known
}

func (e *TruncationError) Error() string {
	site := ""
	if e.Site != "" {
		site = " at " + e.Site
	}
	size := fmt.Sprintf("of %d bytes", e.Bytes)
	if e.Bytes < 0 {
		size = "of unknown size"
	}
	return fmt.Sprintf("rank %d: %s%s: message %s from rank %d (tag %d) does not fit the %d-byte receive buffer",
		e.Receiver, e.Op, site, size, e.Sender, e.Tag, e.Capacity)
}

// BlockedRank is one rank's part of a deadlock report.
type BlockedRank struct {
	Rank int
	Op   string // the operation it waits in, with its peer/root and tag
	Site string // file:line of the user's call
}

// DeadlockError reports that every live rank was blocked in an MPI call with
// no message in flight that could release any of them.
type DeadlockError struct {
	Blocked  []BlockedRank
	Finished []int // ranks that had already returned from the body
}

func (e *DeadlockError) Error() string {
	var b strings.Builder
	b.WriteString("deadlock: every live rank is blocked")
	for _, r := range e.Blocked {
		fmt.Fprintf(&b, "\n  rank %d waits in %s", r.Rank, r.Op)
		if r.Site != "" {
			fmt.Fprintf(&b, " at %s", r.Site)
		}
	}
	if len(e.Finished) > 0 {
		fmt.Fprintf(&b, "\n  ranks already finished: %v", e.Finished)
	}
	b.WriteString("\n  (check that every receive has a matching send and every rank calls the same collectives in the same order)")
	return b.String()
}

// AbortError reports a call of Comm.Abort.
type AbortError struct {
	Rank, Code int
	Site       string
}

func (e *AbortError) Error() string {
	return fmt.Sprintf("rank %d called Abort(%d) at %s", e.Rank, e.Code, e.Site)
}
