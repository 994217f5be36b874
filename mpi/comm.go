package mpi

import "fmt"

// Comm is one rank's handle on a communicator. Each rank gets its own *Comm
// from Main or Run; the handle must not be shared between ranks.
type Comm struct {
	rank, size int
	worldRank  int
	tr         *rankTrace // nil when tracing is off
	b          *commBackend
}

// Rank is the calling rank's number in the communicator, 0 <= Rank < Size.
func (c *Comm) Rank() int { return c.rank }

// Size is the number of ranks in the communicator.
func (c *Comm) Size() int { return c.size }

// Barrier blocks until every rank of the communicator has called it.
func (c *Comm) Barrier() {
	t0 := c.start(opBarrier)
	c.b.barrier()
	c.record(t0, opBarrier, -1, -1, 0, -1, 0)
}

// Split partitions the communicator: ranks that pass the same color form a
// new communicator, ordered by key and then by their rank here. A rank that
// passes Undefined (or any negative color) gets nil. Every rank of c must
// call Split.
func (c *Comm) Split(color, key int) *Comm {
	t0 := c.start(opSplit)
	if color < 0 {
		color = Undefined
	}
	nc := c.b.split(c, color, key)
	c.record(t0, opSplit, -1, -1, 0, -1, 0)
	return nc
}

// Abort stops every rank; Main exits with code. It never returns.
func (c *Comm) Abort(code int) {
	c.b.fail(&AbortError{Rank: c.worldRank, Code: code, Site: callSite()})
}

// BeginInterval marks the start of user interval id (the analogue of
// MPI_Pcontrol(100, id)): traces and the loss report characterise each
// interval separately. Intervals nest.
func (c *Comm) BeginInterval(id int) {
	if c.tr != nil {
		c.tr.mark(opBeginInterval, id)
	}
}

// EndInterval marks the end of user interval id (MPI_Pcontrol(101, id)).
func (c *Comm) EndInterval(id int) {
	if c.tr != nil {
		c.tr.mark(opEndInterval, id)
	}
}

// failf stops the run with a RankError for operation op at the user's call
// site. It never returns.
func (c *Comm) failf(op, format string, args ...any) {
	c.b.fail(&RankError{Rank: c.worldRank, Op: op, Site: callSite(), Msg: fmt.Sprintf(format, args...)})
}

func (c *Comm) checkRank(op, what string, r int, wildcard bool) {
	if wildcard && r == AnySource {
		return
	}
	if r < 0 || r >= c.size {
		c.failf(op, "%s %d out of range [0,%d)", what, r, c.size)
	}
}

func (c *Comm) checkTag(op string, tag int, wildcard bool) {
	if wildcard && tag == AnyTag {
		return
	}
	if tag < 0 {
		c.failf(op, "tag %d is negative", tag)
	}
}
