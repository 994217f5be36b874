package prediction

import (
	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/report"
)

// predictedTimeline converts a simulation with timelines into the report
// package's form (for the Chrome trace export and the loss analysis). The
// simulator does not keep message peers or tags per segment, so they are
// unknown (-1).
func predictedTimeline(run *interpreter.Run, sweep report.Sweep) *report.Timeline {
	t := &report.Timeline{Program: sweep.Program, Machine: sweep.Machine, Args: sweep.Args}
	for r, segs := range run.Timelines {
		rt := report.RankTimeline{Rank: r, Segments: make([]report.Segment, 0, len(segs))}
		for _, s := range segs {
			seg := report.Segment{Start: s.Start, End: s.End, Site: s.Site, Dest: -1, Source: -1, Root: -1, Tag: -1, Comm: s.Group}
			switch s.Kind {
			case interpreter.Compute:
				seg.Kind = report.KindCompute
			case interpreter.Comm:
				seg.Kind, seg.Op = report.KindMPI, s.Op.String()
			case interpreter.Wait:
				seg.Kind, seg.Op = report.KindWait, s.Op.String()
			}
			rt.Segments = append(rt.Segments, seg)
		}
		if r < len(run.Marks) {
			for _, m := range run.Marks[r] {
				rt.Marks = append(rt.Marks, report.Mark{Time: m.T, ID: m.ID, Begin: m.Begin})
			}
		}
		t.Ranks = append(t.Ranks, rt)
	}
	return t
}

// rankTotals are a simulation's per-rank totals.
func rankTotals(run *interpreter.Run, cfg report.Config) *report.RankTotals {
	out := &report.RankTotals{Config: cfg, Ranks: make([]report.RankTotal, len(run.Ranks))}
	for r, st := range run.Ranks {
		out.Ranks[r] = report.RankTotal{Rank: r, Finish: st.Finish, Compute: st.Compute, MPI: st.Comm, Wait: st.Wait,
			Messages: st.Sent, Bytes: st.Bytes}
	}
	return out
}
