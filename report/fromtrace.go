package report

import (
	"fmt"

	"github.com/parpredict/parpredict/mpi"
)

// FromTrace converts a real run's trace into a timeline. The trace records
// only MPI calls, so the gaps between them become compute segments (none is
// marked Serial: a trace cannot tell replicated work apart), and the time
// before a rank's first call and after its last is not covered.
func FromTrace(tr *mpi.Trace) (*Timeline, error) {
	if tr == nil {
		return nil, fmt.Errorf("report: nil trace")
	}
	if len(tr.Ranks) != tr.NP {
		return nil, fmt.Errorf("report: trace has %d rank records for np %d", len(tr.Ranks), tr.NP)
	}
	tl := &Timeline{Args: tr.Args, Machine: tr.Backend}
	for i, rt := range tr.Ranks {
		if rt.Rank != i {
			return nil, fmt.Errorf("report: trace rank record %d is for rank %d", i, rt.Rank)
		}
		r := RankTimeline{Rank: i, Segments: []Segment{}}
		var prev float64
		started := false
		for j, e := range rt.Events {
			if e.T1 < e.T0 {
				return nil, fmt.Errorf("report: trace rank %d event %d (%s at %s): leaves at %v before it enters at %v", i, j, e.Op, e.Site, e.T1, e.T0)
			}
			if started && e.T0 < prev {
				return nil, fmt.Errorf("report: trace rank %d event %d (%s at %s): enters at %v before the previous call left at %v", i, j, e.Op, e.Site, e.T0, prev)
			}
			switch e.Op {
			case "BeginInterval", "EndInterval":
				r.Marks = append(r.Marks, Mark{Time: e.T0, ID: e.ID, Begin: e.Op == "BeginInterval", Site: e.Site})
				continue
			}
			if started && e.T0 > prev {
				r.Segments = append(r.Segments, Segment{Kind: KindCompute, Start: prev, End: e.T0, Dest: -1, Source: -1, Root: -1, Tag: -1})
			}
			r.Segments = append(r.Segments, segmentOf(e))
			prev, started = e.T1, true
		}
		tl.Ranks = append(tl.Ranks, r)
	}
	return tl, tl.Check()
}

// segmentOf maps a trace event's peer and root fields, whose meaning depends
// on the operation (mpi/trace.go), onto Dest and Source.
func segmentOf(e mpi.Event) Segment {
	s := Segment{Kind: KindMPI, Start: e.T0, End: e.T1, Op: e.Op, Site: e.Site,
		Dest: -1, Source: -1, Root: e.Root, Bytes: e.Bytes, Tag: e.Tag, Req: e.Req}
	switch e.Op {
	case "Send", "Isend":
		s.Dest = e.Peer
	case "Recv", "Irecv", "Wait":
		s.Source = e.Peer
	case "Sendrecv":
		// The mpi package records the destination in Peer and the actual
		// source in Root.
		s.Dest, s.Source, s.Root = e.Peer, e.Root, -1
	}
	return s
}
