package report

import (
	"math"
	"strings"
	"testing"
)

// Segment builders for hand-made timelines.
func comp(a, b float64) Segment {
	return Segment{Kind: KindCompute, Start: a, End: b, Dest: -1, Source: -1, Root: -1, Tag: -1}
}

func serial(a, b float64) Segment { s := comp(a, b); s.Serial = true; return s }

func mpiSeg(k Kind, op, site string, a, b float64, dest, src, tag, req int) Segment {
	return Segment{Kind: k, Op: op, Site: site, Start: a, End: b, Dest: dest, Source: src, Root: -1, Tag: tag, Req: req}
}

// handTimeline is two ranks with a send/receive, an allreduce that rank 0
// waits in, and an Isend/Irecv pair; docs in TestLossesWhole give the
// expected values worked out by hand.
func handTimeline() *Timeline {
	return &Timeline{Program: "hand", Ranks: []RankTimeline{
		{Rank: 0, Segments: []Segment{
			serial(0, 1), comp(1, 3),
			mpiSeg(KindMPI, "Send", "a.go:10", 3, 3.5, 1, -1, 0, 0),
			comp(3.5, 4),
			mpiSeg(KindWait, "Allreduce", "a.go:20", 4, 6, -1, -1, -1, 0),
			mpiSeg(KindMPI, "Allreduce", "a.go:20", 6, 6.5, -1, -1, -1, 0),
			mpiSeg(KindMPI, "Irecv", "a.go:40", 6.5, 6.5, -1, 1, 5, 1),
			mpiSeg(KindMPI, "Wait", "a.go:41", 6.5, 6.75, -1, 1, 5, 1),
		}, Marks: []Mark{{Time: 3, ID: 7, Begin: true}, {Time: 6.5, ID: 7}}},
		{Rank: 1, Segments: []Segment{
			serial(0, 1), comp(1, 2),
			mpiSeg(KindWait, "Recv", "a.go:11", 2, 3, -1, 0, 0, 0),
			mpiSeg(KindMPI, "Recv", "a.go:11", 3, 3.5, -1, 0, 0, 0),
			comp(3.5, 6),
			mpiSeg(KindMPI, "Allreduce", "a.go:20", 6, 6.5, -1, -1, -1, 0),
			comp(6.5, 6.6),
			mpiSeg(KindMPI, "Isend", "a.go:30", 6.6, 6.7, 0, -1, 5, 1),
			comp(6.7, 7),
			mpiSeg(KindMPI, "Wait", "a.go:31", 7, 7.2, -1, -1, 5, 1),
		}, Marks: []Mark{{Time: 2, ID: 7, Begin: true}, {Time: 6.5, ID: 7}}},
	}}
}

func checkRank(t *testing.T, got RankLoss, want map[string]float64) {
	t.Helper()
	for _, ch := range characteristics {
		w, ok := want[ch.name]
		if !ok {
			continue
		}
		if g := ch.get(&got); math.Abs(g-w) > 1e-9 {
			t.Errorf("rank %d %s = %v, want %v", got.Rank, ch.name, g, w)
		}
	}
}

func TestLossesWhole(t *testing.T) {
	r, err := Losses(handTimeline(), LossOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l := r.Whole
	// Rank 0 ends at 6.75 and is in MPI for 0.5 (Send) + 2.5 (Allreduce,
	// 2 of it waiting) + 0.25 (Wait); its serial second costs 1 * 1/2.
	// Rank 1 ends at 7.2, in MPI 1.5 (Recv) + 0.5 + 0.1 (Isend) + 0.2.
	// Real sync: rank 1's Recv enters at 2, the Send at 3: 1; rank 0's Wait
	// enters at 6.5, the Isend at 6.6: 0.1. Potential sync: rank 0 enters
	// the Allreduce at 4, rank 1 at 6: 2. Overlap: the Isend at 6.6 waited
	// at 7: 0.4; the Irecv is waited before its send starts: 0.
	checkRank(t, l.Ranks[0], map[string]float64{
		"execution": 6.75, "communications": 3.25, "sendrecv": 0.75, "collective": 2.5, "system": 0,
		"insufficient_parallelism": 0.5, "productive": 3, "idle": 0.45, "lost": 4.2, "load_imbalance": 1.4,
		"real_sync": 0.1, "potential_sync": 2, "time_variation": 0, "overlap": 0,
	})
	checkRank(t, l.Ranks[1], map[string]float64{
		"execution": 7.2, "communications": 2.3, "sendrecv": 1.8, "collective": 0.5,
		"insufficient_parallelism": 0.5, "productive": 4.4, "idle": 0, "lost": 2.8, "load_imbalance": 0,
		"real_sync": 1, "potential_sync": 0, "time_variation": 0, "overlap": 0.4,
	})
	if l.Ranks[0].SendRecvCalls != 3 || l.Ranks[0].CollectiveCalls != 1 || l.Ranks[1].SendRecvCalls != 3 {
		t.Errorf("call counts %+v %+v", l.Ranks[0], l.Ranks[1])
	}
	if !near(l.ExecutionTime, 7.2) || !near(l.TotalTime, 14.4) || !near(l.ProductiveTime, 7.4) ||
		!near(l.LostTime, 7) || !near(l.Efficiency, 7.4/14.4) {
		t.Errorf("totals %+v", l)
	}
	var order []string
	for _, s := range l.Sites {
		order = append(order, s.Site+" "+s.Op)
	}
	if got, want := strings.Join(order, ", "), "a.go:20 Allreduce, a.go:11 Recv, a.go:10 Send, a.go:41 Wait, a.go:31 Wait, a.go:30 Isend, a.go:40 Irecv"; got != want {
		t.Errorf("sites by time:\n%s\nwant\n%s", got, want)
	}
	if s := l.Sites[0]; s.Count != 2 || !near(s.Time, 3) || s.PotentialSync != 2 || s.RankTime[0] != 2.5 {
		t.Errorf("Allreduce site %+v", s)
	}
	lp := comparative(l.Ranks)[2] // productive
	if lp.Name != "productive" || lp.Min != 3 || lp.MinRank != 0 || !near(lp.Max, 4.4) || lp.MaxRank != 1 || !near(lp.Mean, 3.7) {
		t.Errorf("comparative productive %+v", lp)
	}
	bySrc, err := Losses(handTimeline(), LossOptions{SitesBySource: true})
	if err != nil {
		t.Fatal(err)
	}
	if s := bySrc.Whole.Sites; s[0].Site != "a.go:10" || s[len(s)-1].Site != "a.go:41" {
		t.Errorf("sites by source: first %s, last %s", s[0].Site, s[len(s)-1].Site)
	}
	checkGolden(t, "loss.golden.txt", r.WriteText)
	checkGolden(t, "loss.golden.json", r.WriteJSON)
}

func TestLossesInterval(t *testing.T) {
	r, err := Losses(handTimeline(), LossOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Intervals) != 1 || r.Intervals[0].Interval != 7 {
		t.Fatalf("intervals %+v", r.Intervals)
	}
	l := r.Intervals[0]
	// Rank 0 is inside [3, 6.5): Send 0.5 and Allreduce 2.5; the Irecv and
	// Wait at 6.5 are after the end. Rank 1 is inside [2, 6.5).
	checkRank(t, l.Ranks[0], map[string]float64{
		"execution": 3.5, "communications": 3, "insufficient_parallelism": 0, "productive": 0.5,
		"idle": 1, "lost": 4, "load_imbalance": 2, "real_sync": 0, "potential_sync": 2,
	})
	checkRank(t, l.Ranks[1], map[string]float64{
		"execution": 4.5, "communications": 2, "productive": 2.5, "idle": 0, "lost": 2, "real_sync": 1,
	})
	if l.Ranks[0].SendRecvCalls != 1 || l.Ranks[0].CollectiveCalls != 1 {
		t.Errorf("rank 0 calls %+v", l.Ranks[0])
	}
	if !near(l.Efficiency, 3.0/9) {
		t.Errorf("efficiency %v, want 1/3", l.Efficiency)
	}
}

func TestLossesOpenAndNestedIntervals(t *testing.T) {
	tl := &Timeline{Ranks: []RankTimeline{{Rank: 0,
		Segments: []Segment{comp(0, 1), mpiSeg(KindMPI, "Barrier", "b.go:1", 1, 2, -1, -1, -1, 0), comp(2, 4)},
		Marks:    []Mark{{Time: 0.5, ID: 1, Begin: true}, {Time: 1, ID: 1, Begin: true}, {Time: 1.5, ID: 1}, {Time: 3, ID: 2, Begin: true}},
	}}}
	r, err := Losses(tl, LossOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Interval 1 stays open from 0.5 to the end (4); interval 2 from 3.
	if len(r.Intervals) != 2 || r.Intervals[0].Ranks[0].Execution != 3.5 || r.Intervals[1].Ranks[0].Execution != 1 {
		t.Fatalf("intervals %+v", r.Intervals)
	}
	if c := r.Intervals[0].Ranks[0].Collective; c != 1 {
		t.Errorf("interval 1 collective %v, want 1", c)
	}
}

func TestTimelineCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		tl   Timeline
		want string
	}{
		{"no ranks", Timeline{}, "no ranks"},
		{"rank order", Timeline{Ranks: []RankTimeline{{Rank: 1}}}, "is for rank 1"},
		{"backwards", Timeline{Ranks: []RankTimeline{{Segments: []Segment{comp(2, 1)}}}}, "before it starts"},
		{"overlap", Timeline{Ranks: []RankTimeline{{Segments: []Segment{comp(0, 2), comp(1, 3)}}}}, "before the previous one ends"},
		{"NaN", Timeline{Ranks: []RankTimeline{{Segments: []Segment{comp(math.NaN(), 1)}}}}, "not finite"},
		{"no op", Timeline{Ranks: []RankTimeline{{Segments: []Segment{{Kind: KindMPI, End: 1}}}}}, "without an op"},
		{"kind", Timeline{Ranks: []RankTimeline{{Segments: []Segment{{Kind: 9, End: 1}}}}}, "unknown kind"},
		{"end without begin", Timeline{Ranks: []RankTimeline{{Marks: []Mark{{Time: 1, ID: 3}}}}}, "without a begin"},
		{"marks out of order", Timeline{Ranks: []RankTimeline{{Marks: []Mark{{Time: 2, ID: 3, Begin: true}, {Time: 1, ID: 3}}}}}, "out of time order"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Losses(&tc.tl, LossOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestChromeTraceKinds(t *testing.T) {
	tl := handTimeline()
	tl.Ranks[0].Segments[0].Site = "region 3"
	checkGolden(t, "chrome_kinds.golden.json", tl.WriteChromeTrace)
	bad := &Timeline{}
	if err := bad.WriteChromeTrace(new(strings.Builder)); err == nil {
		t.Error("empty timeline: no error")
	}
}

// Collectives are matched per communicator: two rows of a grid, each with
// its own Allreduce at one site, wait only for their own row.
func TestCollectivesMatchedPerCommunicator(t *testing.T) {
	rank := func(r, comm int, enter float64) RankTimeline {
		all := mpiSeg(KindMPI, "Allreduce", "a.go:20", enter, 10, -1, -1, -1, 0)
		all.Comm = comm
		return RankTimeline{Rank: r, Segments: []Segment{comp(0, enter), all}}
	}
	tl := &Timeline{Program: "rows", Ranks: []RankTimeline{rank(0, 1, 1), rank(1, 1, 2), rank(2, 2, 6), rank(3, 2, 8)}}
	r, err := Losses(tl, LossOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{1, 0, 2, 0} {
		if got := r.Whole.Ranks[i].PotentialSync; !near(got, want) {
			t.Errorf("rank %d potential sync %g, want %g (its row's last entry less its own)", i, got, want)
		}
	}
}
