package report

import (
	"strings"
	"testing"
	"time"

	"github.com/parpredict/parpredict/mpi"
)

func ev(op string, t0, t1 float64, peer, root, tag, req int, site string) mpi.Event {
	return mpi.Event{Op: op, T0: t0, T1: t1, Peer: peer, Root: root, Tag: tag, Req: req, Site: site}
}

func TestFromTrace(t *testing.T) {
	tr := &mpi.Trace{Format: mpi.TraceFormat, Version: mpi.TraceVersion, Backend: "goroutine", NP: 2, Ranks: []mpi.RankTrace{
		{Rank: 0, Events: []mpi.Event{
			ev("BeginInterval", 1, 1, -1, -1, -1, 0, "h.go:5"),
			ev("Sendrecv", 1, 1.5, 1, 1, 0, 0, "h.go:9"),
			ev("Allreduce", 2, 2.25, -1, -1, -1, 0, "h.go:12"),
			ev("EndInterval", 3, 3, -1, -1, -1, 0, "h.go:14"),
		}},
		{Rank: 1, Events: []mpi.Event{
			ev("Sendrecv", 1.25, 1.5, 0, 0, 0, 0, "h.go:9"),
			ev("Allreduce", 1.75, 2.25, -1, -1, -1, 0, "h.go:12"),
		}},
	}}
	tr.Ranks[0].Events[0].ID, tr.Ranks[0].Events[3].ID = 1, 1
	tl, err := FromTrace(tr)
	if err != nil {
		t.Fatal(err)
	}
	r0 := tl.Ranks[0]
	if len(r0.Segments) != 3 || r0.Segments[1].Kind != KindCompute || r0.Segments[1].Start != 1.5 || r0.Segments[1].End != 2 {
		t.Errorf("rank 0 segments %+v", r0.Segments)
	}
	if s := r0.Segments[0]; s.Dest != 1 || s.Source != 1 || s.Root != -1 {
		t.Errorf("Sendrecv fields %+v", s)
	}
	if len(r0.Marks) != 2 || !r0.Marks[0].Begin || r0.Marks[1].Time != 3 || r0.Marks[1].ID != 1 {
		t.Errorf("marks %+v", r0.Marks)
	}
	l, err := Losses(tl, LossOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Rank 0 enters its Sendrecv at 1, rank 1 sends at 1.25: real sync
	// 0.25. Rank 1 enters the Allreduce at 1.75, rank 0 at 2.
	if rs := l.Whole.Ranks[0].RealSync; !near(rs, 0.25) {
		t.Errorf("rank 0 real sync %v, want 0.25", rs)
	}
	if ps := l.Whole.Ranks[1].PotentialSync; !near(ps, 0.25) {
		t.Errorf("rank 1 potential sync %v, want 0.25", ps)
	}
	checkGolden(t, "chrome.golden.json", tl.WriteChromeTrace)
}

func TestFromTraceErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		tr   *mpi.Trace
		want string
	}{
		{"nil", nil, "nil trace"},
		{"np", &mpi.Trace{NP: 2, Ranks: []mpi.RankTrace{{}}}, "1 rank records for np 2"},
		{"rank", &mpi.Trace{NP: 1, Ranks: []mpi.RankTrace{{Rank: 3}}}, "is for rank 3"},
		{"backwards", &mpi.Trace{NP: 1, Ranks: []mpi.RankTrace{{Events: []mpi.Event{ev("Barrier", 2, 1, -1, -1, -1, 0, "x.go:1")}}}}, "leaves at 1 before it enters at 2"},
		{"overlap", &mpi.Trace{NP: 1, Ranks: []mpi.RankTrace{{Events: []mpi.Event{
			ev("Barrier", 1, 2, -1, -1, -1, 0, "x.go:1"), ev("Barrier", 1.5, 3, -1, -1, -1, 0, "x.go:2")}}}}, "x.go:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromTrace(tc.tr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestFromRealTrace converts the trace of a real goroutine-backend run in
// which rank 1 receives 30 ms before rank 0 sends: the receive's real sync
// must show most of that wait.
func TestFromRealTrace(t *testing.T) {
	tr, err := mpi.Launch(mpi.Options{NP: 2, Trace: true}, func(c *mpi.Comm) {
		buf := []float64{1, 2}
		if c.Rank() == 0 {
			time.Sleep(30 * time.Millisecond)
			mpi.Send(c, buf, 1, 7)
		} else {
			mpi.Recv(c, buf, 0, 7)
		}
		c.Barrier()
	})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := FromTrace(tr)
	if err != nil {
		t.Fatal(err)
	}
	l, err := Losses(tl, LossOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r1 := l.Whole.Ranks[1]
	if r1.RealSync < 0.02 || r1.RealSync > r1.SendRecv {
		t.Errorf("rank 1 real sync %v s (send/recv time %v s), want >= 0.02 s and within the call", r1.RealSync, r1.SendRecv)
	}
	if r1.SendRecvCalls != 1 || r1.CollectiveCalls != 1 {
		t.Errorf("rank 1 calls %+v", r1)
	}
}
