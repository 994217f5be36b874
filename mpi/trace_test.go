package mpi_test

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parpredict/parpredict/mpi"
)

func TestTraceRecordsCalls(t *testing.T) {
	needRanks(t, 3)
	tr, err := mpi.Launch(mpi.Options{NP: 3, Trace: true}, func(c *mpi.Comm) {
		c.BeginInterval(1)
		buf := make([]float64, 4)
		if c.Rank() == 0 {
			mpi.Send(c, buf, 1, 5)
		}
		if c.Rank() == 1 {
			mpi.Recv(c, buf, mpi.AnySource, mpi.AnyTag)
		}
		req := mpi.Irecv(c, buf[:1], (c.Rank()+2)%3, 0)
		mpi.Isend(c, buf[:1], (c.Rank()+1)%3, 0)
		req.Wait()
		mpi.Allreduce(c, buf, buf, mpi.Sum)
		mpi.Bcast(c, buf, 2)
		c.EndInterval(1)
	})
	if err != nil {
		t.Fatal(err)
	}
	if outsideRun(3) {
		return
	}
	if tr.NP != 3 || len(tr.Ranks) != 3 || tr.Backend == "" {
		t.Fatalf("trace header %+v", tr)
	}
	var ops []string
	for _, e := range tr.Ranks[1].Events {
		ops = append(ops, e.Op)
		if e.T1 < e.T0 || !strings.HasPrefix(e.Site, "trace_test.go:") {
			t.Errorf("event %+v: bad times or site", e)
		}
	}
	want := "BeginInterval Recv Irecv Isend Wait Allreduce Bcast EndInterval"
	if got := strings.Join(ops, " "); got != want {
		t.Fatalf("rank 1 ops %q, want %q", got, want)
	}
	recv := tr.Ranks[1].Events[1]
	if recv.Peer != 0 || recv.Bytes != 32 || recv.Tag != 5 {
		t.Errorf("Recv event %+v: want peer 0, 32 bytes, tag 5", recv)
	}
	irecv, wait := tr.Ranks[1].Events[2], tr.Ranks[1].Events[4]
	if irecv.Req == 0 || wait.Req != irecv.Req || wait.Peer != 0 || wait.Bytes != 8 {
		t.Errorf("Irecv %+v and Wait %+v not linked", irecv, wait)
	}
	if b := tr.Ranks[1].Events[6]; b.Root != 2 || b.Bytes != 32 {
		t.Errorf("Bcast event %+v", b)
	}

	path := filepath.Join(t.TempDir(), "run.trace.json")
	if err := tr.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := mpi.ReadTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Ranks[2].Events) != len(tr.Ranks[2].Events) {
		t.Errorf("round trip lost events")
	}
}

func TestTraceOffRecordsNothing(t *testing.T) {
	needRanks(t, 2)
	tr, err := mpi.Launch(mpi.Options{NP: 2}, func(c *mpi.Comm) { c.Barrier() })
	if err != nil || tr != nil {
		t.Fatalf("trace %v, err %v", tr, err)
	}
}

func TestReadTraceRejectsOtherFiles(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"notjson.json": "hello",
		"other.json":   `{"format":"something","version":1}`,
		"future.json":  `{"format":"parpredict-trace","version":99}`,
	} {
		p := filepath.Join(dir, name)
		if err := writeFile(p, content); err != nil {
			t.Fatal(err)
		}
		if _, err := mpi.ReadTrace(p); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: got %v, want an error naming the file", name, err)
		}
	}
}

// A sampled trace records every call up to the first stage and then one
// call of each block of 2, 4, ... calls, weighted by the block's size:
// the weights add up to the calls made, up to the last block; interval
// marks are all recorded.
func TestTraceSampling(t *testing.T) {
	needRanks(t, 2)
	t.Setenv(mpi.EnvTraceSample, "1")
	const calls = 60000
	tr, err := mpi.Launch(mpi.Options{NP: 2, Trace: true}, func(c *mpi.Comm) {
		c.BeginInterval(1)
		buf := make([]byte, 8)
		for i := range calls {
			if c.Rank() == 0 {
				mpi.Send(c, buf, 1, i%2)
			} else {
				mpi.Recv(c, buf, 0, i%2)
			}
		}
		c.EndInterval(1)
	})
	if err != nil {
		t.Fatal(err)
	}
	if outsideRun(2) {
		return
	}
	for _, rk := range tr.Ranks {
		weight, marks, recorded, last := 0, 0, 0, 1
		byTag := [2]int{}
		for _, e := range rk.Events {
			switch e.Op {
			case "BeginInterval", "EndInterval":
				marks++
			default:
				recorded++
				w := max(e.W, 1)
				last = max(last, w) // the last stage's block
				weight += w
				byTag[e.Tag] += w
			}
		}
		if marks != 2 {
			t.Errorf("rank %d: %d interval marks, want 2", rk.Rank, marks)
		}
		if recorded >= calls/10 || recorded < 256 {
			t.Errorf("rank %d: %d of %d calls recorded, want the first 256 and a sample of the rest", rk.Rank, recorded, calls)
		}
		if weight >= calls+last || weight <= calls-last {
			t.Errorf("rank %d: weights add up to %d for %d calls (last block %d)", rk.Rank, weight, calls, last)
		}
		// Calls alternate between two tags: the sample must not see one.
		for tag, w := range byTag {
			if d := float64(w-calls/2) / (calls / 2); d > 0.1 || d < -0.1 {
				t.Errorf("rank %d: tag %d weighs %d of %d calls", rk.Rank, tag, w, calls/2)
			}
		}
	}
}

// A sampled trace samples each operation apart: one Barrier that waits 2
// ms after thousands of Sends is recorded with weight 1, not as one call
// of a block of 64 (its site's time 64 times too long) nor left out; and
// the weights still add up to the calls made.
func TestTraceSamplingKeepsRareOperations(t *testing.T) {
	needRanks(t, 2)
	t.Setenv(mpi.EnvTraceSample, "1")
	const calls = 20000
	tr, err := mpi.Launch(mpi.Options{NP: 2, Trace: true}, func(c *mpi.Comm) {
		buf := make([]byte, 8)
		for range calls {
			if c.Rank() == 0 {
				mpi.Send(c, buf, 1, 0)
			} else {
				mpi.Recv(c, buf, 0, 0)
			}
		}
		if c.Rank() == 1 {
			time.Sleep(2 * time.Millisecond)
		}
		c.Barrier() // the rare operation, long on rank 0
	})
	if err != nil {
		t.Fatal(err)
	}
	if outsideRun(2) {
		return
	}
	weight, block, barriers := 0, 1, 0
	for _, e := range tr.Ranks[0].Events {
		w := max(e.W, 1)
		weight += w
		block = max(block, w)
		if e.Op == "Barrier" {
			barriers++
			if w != 1 || e.T1-e.T0 < 1e-3 {
				t.Errorf("the Barrier recorded with weight %d, %.3g s; want weight 1, at least 1 ms", w, e.T1-e.T0)
			}
		}
	}
	if barriers != 1 {
		t.Errorf("%d Barrier events on rank 0, want 1", barriers)
	}
	if block < 8 {
		t.Errorf("largest weight %d: the sample never left its first stages", block)
	}
	if n := calls + 1; weight >= n+block || weight <= n-block {
		t.Errorf("weights add up to %d for %d calls (last block %d)", weight, n, block)
	}
}

// With $PARPREDICT_TRACE_INTERVALS a trace holds the interval marks
// alone, with their sites.
func TestTraceIntervalsOnly(t *testing.T) {
	needRanks(t, 2)
	t.Setenv(mpi.EnvTraceIntervals, "1")
	tr, err := mpi.Launch(mpi.Options{NP: 2, Trace: true}, func(c *mpi.Comm) {
		c.BeginInterval(3)
		buf := make([]byte, 8)
		for range 10 {
			if c.Rank() == 0 {
				mpi.Send(c, buf, 1, 0)
			} else {
				mpi.Recv(c, buf, 0, 0)
			}
		}
		c.Barrier()
		c.EndInterval(3)
	})
	if err != nil {
		t.Fatal(err)
	}
	if outsideRun(2) {
		return
	}
	for _, rk := range tr.Ranks {
		var ops []string
		for _, e := range rk.Events {
			ops = append(ops, e.Op)
			if e.ID != 3 || !strings.HasPrefix(e.Site, "trace_test.go:") {
				t.Errorf("rank %d: mark %+v, want interval 3 at a trace_test.go line", rk.Rank, e)
			}
		}
		if got := strings.Join(ops, " "); got != "BeginInterval EndInterval" {
			t.Errorf("rank %d recorded %q, want the two interval marks", rk.Rank, got)
		}
		// The goroutine backend records when the body ran, around the
		// marks (the MPI backends do not: 0).
		if tr.Backend == "goroutine" && (len(rk.Events) != 2 || !(rk.Start > 0 && rk.Start <= rk.Events[0].T0 && rk.Events[1].T1 <= rk.Finish)) {
			t.Errorf("rank %d: body from %v to %v, marks %+v", rk.Rank, rk.Start, rk.Finish, rk.Events)
		}
	}
}

// FuzzParseTrace checks that no input makes ParseTrace panic, and that a
// trace it accepts has a record per rank.
func FuzzParseTrace(f *testing.F) {
	f.Add([]byte(`{"format": "parpredict-trace", "version": 1, "np": 1, "ranks": [{"rank": 0, "events": [{"op": "Barrier", "t0": 0.5, "t1": 0.75}]}]}`))
	f.Add([]byte(`{"format": "parpredict-trace", "version": 1, "np": 2, "ranks": [{"rank": 1}, {"rank": 0}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := mpi.ParseTrace("fuzz.json", data)
		if err != nil {
			return
		}
		if len(tr.Ranks) != tr.NP {
			t.Fatalf("%d rank records for np %d", len(tr.Ranks), tr.NP)
		}
	})
}

// TestBodySum adds the ranks' body times, and refuses a trace where a
// rank has none (the MPI backends record no Start and Finish).
func TestBodySum(t *testing.T) {
	tr := &mpi.Trace{Ranks: []mpi.RankTrace{{Start: 1, Finish: 3.5}, {Start: 1.25, Finish: 2}}}
	if got, ok := tr.BodySum(); !ok || got != 3.25 {
		t.Errorf("BodySum = %v, %v; want 3.25, true", got, ok)
	}
	tr.Ranks = append(tr.Ranks, mpi.RankTrace{})
	if got, ok := tr.BodySum(); ok {
		t.Errorf("a rank without body times: BodySum = %v, true; want false", got)
	}
	if _, ok := (&mpi.Trace{}).BodySum(); ok {
		t.Error("a trace without ranks: BodySum ok")
	}
}

// Each recorded call says how long recording it took after its end (its
// call site found, the record stored): more than nothing, less than a
// second; interval marks are recorded at one instant and say nothing.
func TestTraceRecordsItsOwnCost(t *testing.T) {
	needRanks(t, 2)
	tr, err := mpi.Launch(mpi.Options{NP: 2, Trace: true}, func(c *mpi.Comm) {
		c.BeginInterval(1)
		buf := []float64{1}
		for range 50 {
			mpi.Allreduce(c, buf, buf, mpi.Sum)
		}
		c.EndInterval(1)
	})
	if err != nil {
		t.Fatal(err)
	}
	if outsideRun(2) {
		return
	}
	for _, rk := range tr.Ranks {
		calls := 0
		for _, e := range rk.Events {
			switch {
			case e.Op == "BeginInterval" || e.Op == "EndInterval":
				if e.Rec != 0 {
					t.Errorf("rank %d: %s with a recording cost of %g s", rk.Rank, e.Op, e.Rec)
				}
			case !(e.Rec > 0) || e.Rec >= 1:
				t.Errorf("rank %d: %s at %s took %g s to record, want more than 0 and less than a second", rk.Rank, e.Op, e.Site, e.Rec)
			default:
				calls++
			}
		}
		if calls != 50 {
			t.Errorf("rank %d: %d Allreduces with their recording cost, want 50", rk.Rank, calls)
		}
	}
}

// A Bcast call site whose every call carries the same small payload keeps
// it in the trace (SiteValues); one whose payloads differ, or one too
// large, keeps none.
func TestTraceKeepsBroadcastValues(t *testing.T) {
	needRanks(t, 2)
	tr, err := mpi.Launch(mpi.Options{NP: 2, Trace: true}, func(c *mpi.Comm) {
		params := make([]int, 2)
		for step := 0; step < 3; step++ {
			if c.Rank() == 0 {
				params[0], params[1] = 2000000, 40
			}
			mpi.Bcast(c, params, 0) // the same every time
			flag := []int{step}
			mpi.Bcast(c, flag, 0) // differs from call to call
		}
		big := make([]float64, 100)
		mpi.Bcast(c, big, 0) // too large to keep
	})
	if err != nil {
		t.Fatal(err)
	}
	if outsideRun(2) || tr.Backend != "goroutine" {
		return // only the goroutine backend keeps the values
	}
	for r, rk := range tr.Ranks {
		if len(rk.Values) != 1 {
			t.Fatalf("rank %d keeps %d sites' values, want 1: %+v", r, len(rk.Values), rk.Values)
		}
		v := rk.Values[0]
		want := make([]byte, 16)
		binary.LittleEndian.PutUint64(want, 2000000)
		binary.LittleEndian.PutUint64(want[8:], 40)
		if v.Op != "Bcast" || !strings.HasPrefix(v.Site, "trace_test.go:") || !bytes.Equal(v.Data, want) {
			t.Errorf("rank %d: %+v, want Bcast of 2000000, 40", r, v)
		}
	}
}
