package report

import (
	"fmt"
	"math"
)

// Kind says what a rank does during a timeline segment.
type Kind uint8

const (
	// KindCompute is the rank's own work.
	KindCompute Kind = iota
	// KindMPI is time inside an MPI call transferring or synchronising.
	KindMPI
	// KindWait is time inside an MPI call blocked on another rank (a
	// receive before its send, a collective before the last arrival). A
	// wait segment directly followed by an MPI segment of the same op and
	// site is part of that call.
	KindWait
)

var kindNames = [...]string{"compute", "mpi", "wait"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// MarshalText writes the kind's name, so JSON timelines are readable.
func (k Kind) MarshalText() ([]byte, error) {
	if int(k) >= len(kindNames) {
		return nil, fmt.Errorf("report: unknown segment kind %d", k)
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("report: unknown segment kind %q", b)
}

// Segment is one stretch of a rank's time, in seconds.
type Segment struct {
	Kind  Kind    `json:"kind"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	// Op is the MPI operation ("Send", "Allreduce", ...) of MPI and wait
	// segments; empty for compute.
	Op string `json:"op,omitempty"`
	// Site is the call site ("heat.go:88") of an MPI call, or the region ID
	// of a compute segment.
	Site string `json:"site,omitempty"`
	// Dest is the destination of a send (Send, Isend, Sendrecv); Source the
	// source of a receive (Recv, Irecv, Sendrecv, Wait of a receive); Root
	// the root of a rooted collective; -1 where not applicable or unknown.
	Dest   int `json:"dest"`
	Source int `json:"source"`
	Root   int `json:"root"`
	Bytes  int `json:"bytes,omitempty"`
	// Tag is the message tag; -1 for any tag or none.
	Tag int `json:"tag"`
	// Req links a non-blocking call to the Wait that completes it (0: none).
	Req int `json:"req,omitempty"`
	// Serial marks compute that every rank repeats (work that does not get
	// faster with P); it counts as insufficient parallelism.
	Serial bool `json:"serial,omitempty"`
	// Comm is the communicator of an MPI or wait segment: 0 for the world
	// (and in traces of real runs, which do not name communicators), else
	// the id a simulation gave a communicator that Split made.
	Comm int `json:"comm,omitempty"`
}

// Dur is the segment's duration in seconds.
func (s Segment) Dur() float64 { return s.End - s.Start }

// Mark is a user interval mark: Begin of interval ID at Time, or its end.
type Mark struct {
	Time  float64 `json:"time"`
	ID    int     `json:"id"`
	Begin bool    `json:"begin"`
	Site  string  `json:"site,omitempty"`
}

// RankTimeline is one rank's segments and marks, each in time order.
type RankTimeline struct {
	Rank     int       `json:"rank"`
	Segments []Segment `json:"segments"`
	Marks    []Mark    `json:"marks,omitempty"`
}

// Timeline is a per-rank record of a run, predicted by the interpreter or
// converted from a real run's trace (FromTrace).
type Timeline struct {
	Program string         `json:"program,omitempty"`
	Machine string         `json:"machine,omitempty"`
	Args    []string       `json:"args,omitempty"`
	Ranks   []RankTimeline `json:"ranks"`
}

// Check reports the first malformed part of the timeline: ranks out of
// order, segments that end before they start, overlap or are not finite,
// marks out of order or unbalanced.
func (t *Timeline) Check() error {
	if len(t.Ranks) == 0 {
		return fmt.Errorf("report: timeline has no ranks")
	}
	for i, r := range t.Ranks {
		if r.Rank != i {
			return fmt.Errorf("report: timeline rank record %d is for rank %d", i, r.Rank)
		}
		prev := math.Inf(-1)
		for j, s := range r.Segments {
			switch {
			case math.IsNaN(s.Start) || math.IsInf(s.Start, 0) || math.IsNaN(s.End) || math.IsInf(s.End, 0):
				return fmt.Errorf("report: rank %d segment %d: time not finite", i, j)
			case s.End < s.Start:
				return fmt.Errorf("report: rank %d segment %d (%s %s): ends at %v before it starts at %v", i, j, s.Kind, s.Op, s.End, s.Start)
			case s.Start < prev:
				return fmt.Errorf("report: rank %d segment %d (%s %s): starts at %v before the previous one ends at %v", i, j, s.Kind, s.Op, s.Start, prev)
			case s.Kind > KindWait:
				return fmt.Errorf("report: rank %d segment %d: unknown kind %d", i, j, s.Kind)
			case s.Kind != KindCompute && s.Op == "":
				return fmt.Errorf("report: rank %d segment %d: %s segment without an op", i, j, s.Kind)
			}
			prev = s.End
		}
		open := map[int]int{}
		prev = math.Inf(-1)
		for j, m := range r.Marks {
			if math.IsNaN(m.Time) || m.Time < prev {
				return fmt.Errorf("report: rank %d mark %d (interval %d at %s): out of time order", i, j, m.ID, m.Site)
			}
			prev = m.Time
			if m.Begin {
				open[m.ID]++
			} else if open[m.ID]--; open[m.ID] < 0 {
				return fmt.Errorf("report: rank %d mark %d: end of interval %d at %s without a begin", i, j, m.ID, m.Site)
			}
		}
	}
	return nil
}

// span is the time covered by a rank's segments and marks.
func (r *RankTimeline) span() (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	if n := len(r.Segments); n > 0 {
		lo, hi = r.Segments[0].Start, r.Segments[n-1].End
	}
	if n := len(r.Marks); n > 0 {
		lo, hi = math.Min(lo, r.Marks[0].Time), math.Max(hi, r.Marks[n-1].Time)
	}
	return lo, hi, lo <= hi
}

// Origin is the earliest time in the timeline, which reports count from.
func (t *Timeline) Origin() float64 {
	o := math.Inf(1)
	for i := range t.Ranks {
		if lo, _, ok := t.Ranks[i].span(); ok {
			o = math.Min(o, lo)
		}
	}
	if math.IsInf(o, 1) {
		return 0
	}
	return o
}
