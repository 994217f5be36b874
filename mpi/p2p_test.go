package mpi_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parpredict/parpredict/mpi"
)

// forRanks runs body for every rank count 1..9, failing the test on a run
// error. Per-rank checks report through errs.
func forRanks(t *testing.T, body func(t *testing.T, c *mpi.Comm, errs *errList)) {
	t.Helper()
	for np := 1; np <= 9; np++ {
		t.Run(fmt.Sprintf("np%d", np), func(t *testing.T) {
			needRanks(t, np)
			var errs errList
			if err := mpi.Run(np, func(c *mpi.Comm) { body(t, c, &errs) }); err != nil {
				t.Fatal(err)
			}
			errs.report(t)
		})
	}
}

// errList collects failures from rank goroutines (t.Errorf from them is
// fine, but a list keeps the report in rank order).
type errList struct {
	mu   sync.Mutex
	msgs []string
}

func (e *errList) add(c *mpi.Comm, format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.msgs = append(e.msgs, fmt.Sprintf("rank %d: ", c.Rank())+fmt.Sprintf(format, args...))
}

func (e *errList) report(t *testing.T) {
	t.Helper()
	for _, m := range e.msgs {
		t.Error(m)
	}
}

func TestRankSize(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		seen := make([]int32, c.Size())
		mine := []int32{int32(c.Rank())}
		mpi.Allgather(c, mine, seen)
		for r, v := range seen {
			if int(v) != r {
				errs.add(c, "Allgather of ranks gave %v", seen)
				break
			}
		}
	})
}

func TestSendRecvRing(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		n, r := c.Size(), c.Rank()
		out := []float64{float64(r), float64(r * r)}
		in := make([]float64, 2)
		mpi.Send(c, out, (r+1)%n, 7)
		st := mpi.Recv(c, in, (r-1+n)%n, 7)
		prev := (r - 1 + n) % n
		if in[0] != float64(prev) || in[1] != float64(prev*prev) || st.Source != prev || st.Tag != 7 || st.Count != 2 {
			errs.add(c, "got %v status %+v from %d", in, st, prev)
		}
	})
}

func TestSendrecvShift(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		n, r := c.Size(), c.Rank()
		in := make([]complex128, 1)
		st := mpi.Sendrecv(c, []complex128{complex(float64(r), 1)}, (r+1)%n, 3, in, (r-1+n)%n, 3)
		if want := complex(float64((r-1+n)%n), 1); in[0] != want || st.Count != 1 {
			errs.add(c, "got %v, want %v", in[0], want)
		}
	})
}

func TestMessageOrderPreserved(t *testing.T) {
	needRanks(t, 2)
	err := mpi.Run(2, func(c *mpi.Comm) {
		const k = 200
		if c.Rank() == 0 {
			for i := range k {
				mpi.Send(c, []int{i}, 1, 5)
				mpi.Send(c, []int{-i}, 1, 6) // other tag interleaved
			}
			return
		}
		buf := []int{0}
		for i := range k {
			mpi.Recv(c, buf, 0, 5)
			if buf[0] != i {
				panic(fmt.Sprintf("tag 5 message %d overtaken: got %d", i, buf[0]))
			}
		}
		for i := range k {
			mpi.Recv(c, buf, 0, 6)
			if buf[0] != -i {
				panic(fmt.Sprintf("tag 6 message %d overtaken: got %d", i, buf[0]))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLargeMessages sends messages big enough to be copied outside the
// runtime's lock, both to a receive posted before the send and to one
// posted after it, from every rank to rank 0 at once, so that the race
// detector sees the copies, and order and contents still hold.
func TestLargeMessages(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		const n = 1 << 14 // 128 KiB of float64
		fill := func(r, k int) []float64 {
			m := make([]float64, n)
			for i := range m {
				m[i] = float64(r*1000 + k*100 + i%97)
			}
			return m
		}
		if c.Rank() != 0 {
			for k := range 3 {
				mpi.Send(c, fill(c.Rank(), k), 0, 7)
			}
			c.Barrier()
			return
		}
		bufs := make([][]float64, c.Size())
		reqs := make([]*mpi.Request, c.Size())
		for r := 1; r < c.Size(); r++ { // posted before the sends, or not
			bufs[r] = make([]float64, n)
			reqs[r] = mpi.Irecv(c, bufs[r], r, 7)
		}
		for r := 1; r < c.Size(); r++ {
			reqs[r].Wait()
			got := make([]float64, n)
			for k := 1; k < 3; k++ { // queued as unexpected, then matched
				mpi.Recv(c, got, r, 7)
				if !slices.Equal(got, fill(r, k)) {
					errs.add(c, "message %d from rank %d arrived changed", k, r)
				}
			}
			if !slices.Equal(bufs[r], fill(r, 0)) {
				errs.add(c, "first message from rank %d arrived changed", r)
			}
		}
		c.Barrier()
	})
}

func TestAnySourceAnyTag(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		if c.Rank() != 0 {
			mpi.Send(c, []int64{int64(c.Rank()) * 10}, 0, c.Rank())
			return
		}
		seen := map[int]bool{}
		buf := make([]int64, 4) // longer than the messages: allowed
		for range c.Size() - 1 {
			st := mpi.Recv(c, buf, mpi.AnySource, mpi.AnyTag)
			if st.Tag != st.Source || buf[0] != int64(st.Source)*10 || st.Count != 1 || seen[st.Source] {
				errs.add(c, "status %+v buf %v", st, buf)
			}
			seen[st.Source] = true
		}
	})
}

func TestNonBlocking(t *testing.T) {
	forRanks(t, func(t *testing.T, c *mpi.Comm, errs *errList) {
		n, r := c.Size(), c.Rank()
		left, right := (r-1+n)%n, (r+1)%n
		fromLeft, fromRight := make([]float32, 3), make([]float32, 3)
		reqs := []*mpi.Request{
			mpi.Irecv(c, fromLeft, left, 1),
			mpi.Irecv(c, fromRight, right, 2),
			mpi.Isend(c, []float32{float32(r), 1, 2}, right, 1),
			mpi.Isend(c, []float32{float32(r), 3, 4}, left, 2),
		}
		sts := mpi.Waitall(reqs...)
		if fromLeft[0] != float32(left) || fromLeft[2] != 2 || fromRight[0] != float32(right) || fromRight[2] != 4 {
			errs.add(c, "left %v right %v", fromLeft, fromRight)
		}
		if sts[0].Source != left || sts[1].Source != right || sts[0].Count != 3 {
			errs.add(c, "statuses %+v", sts)
		}
		// Wait and Test on an already completed request return its status.
		if st := reqs[0].Wait(); st != sts[0] {
			errs.add(c, "second Wait gave %+v", st)
		}
		if _, ok := reqs[1].Test(); !ok {
			errs.add(c, "Test of a completed request says not done")
		}
	})
}

func TestTestPollsUntilDone(t *testing.T) {
	needRanks(t, 2)
	err := mpi.Run(2, func(c *mpi.Comm) {
		if c.Rank() == 1 {
			time.Sleep(20 * time.Millisecond)
			mpi.Send(c, []uint16{42}, 0, 0)
			return
		}
		buf := []uint16{0}
		req := mpi.Irecv(c, buf, 1, 0)
		if _, ok := req.Test(); ok {
			panic("Test completed before the send")
		}
		for {
			if st, ok := req.Test(); ok {
				if buf[0] != 42 || st.Source != 1 {
					panic(fmt.Sprintf("got %v %+v", buf, st))
				}
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestTruncationIsAnError(t *testing.T) {
	goroutineOnly(t, "a truncation aborts the MPI job")
	err := mpi.Run(2, func(c *mpi.Comm) {
		if c.Rank() == 0 {
			mpi.Send(c, make([]float64, 10), 1, 4)
			c.Barrier()
			return
		}
		mpi.Recv(c, make([]float64, 5), 0, 4)
		c.Barrier()
	})
	var te *mpi.TruncationError
	if !errors.As(err, &te) {
		t.Fatalf("got %v, want a TruncationError", err)
	}
	if te.Sender != 0 || te.Receiver != 1 || te.Bytes != 80 || te.Capacity != 40 {
		t.Errorf("truncation error %+v", te)
	}
	for _, want := range []string{"rank 1", "rank 0", "80 bytes", "40-byte"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
}

func TestDeadlockIsReported(t *testing.T) {
	goroutineOnly(t, "MPI libraries do not detect deadlocks")
	done := make(chan error, 1)
	go func() {
		done <- mpi.Run(2, func(c *mpi.Comm) {
			buf := []int{0}
			mpi.Recv(c, buf, 1-c.Rank(), 0) // both receive first
			mpi.Send(c, buf, 1-c.Rank(), 0)
		})
	}()
	select {
	case err := <-done:
		var de *mpi.DeadlockError
		if !errors.As(err, &de) {
			t.Fatalf("got %v, want a DeadlockError", err)
		}
		if len(de.Blocked) != 2 {
			t.Fatalf("blocked ranks %+v", de.Blocked)
		}
		for r, b := range de.Blocked {
			if b.Rank != r || !strings.HasPrefix(b.Op, "Recv(peer "+fmt.Sprint(1-r)) || !strings.HasPrefix(b.Site, "p2p_test.go:") {
				t.Errorf("blocked rank report %+v", b)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("deadlocked run did not end")
	}
}

func TestDeadlockAfterOtherRanksFinish(t *testing.T) {
	goroutineOnly(t, "MPI libraries do not detect deadlocks")
	err := mpi.Run(3, func(c *mpi.Comm) {
		if c.Rank() == 2 {
			mpi.Recv(c, []int{0}, 0, 9) // nobody sends this
		}
	})
	var de *mpi.DeadlockError
	if !errors.As(err, &de) || len(de.Blocked) != 1 || de.Blocked[0].Rank != 2 || len(de.Finished) != 2 {
		t.Fatalf("got %v", err)
	}
}

func TestMismatchedCollectivesDeadlock(t *testing.T) {
	goroutineOnly(t, "MPI libraries do not detect deadlocks")
	err := mpi.Run(2, func(c *mpi.Comm) {
		if c.Rank() == 0 {
			c.Barrier()
		} else {
			mpi.Reduce(c, []int{1}, []int{0}, mpi.Sum, 1)
		}
	})
	var de *mpi.DeadlockError
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want a DeadlockError", err)
	}
	if !strings.Contains(err.Error(), "Barrier") || !strings.Contains(err.Error(), "Reduce(root 1)") {
		t.Errorf("report does not name the collectives: %v", err)
	}
}

func TestPanicStopsAllRanks(t *testing.T) {
	goroutineOnly(t, "a panic aborts the MPI job")
	err := mpi.Run(4, func(c *mpi.Comm) {
		if c.Rank() == 2 {
			panic("boom")
		}
		mpi.Recv(c, []int{0}, 2, 0) // would wait forever
	})
	var re *mpi.RankError
	if !errors.As(err, &re) || re.Rank != 2 || !strings.Contains(re.Msg, "boom") {
		t.Fatalf("got %v, want rank 2's panic", err)
	}
}

func TestAbort(t *testing.T) {
	goroutineOnly(t, "Abort aborts the MPI job")
	err := mpi.Run(3, func(c *mpi.Comm) {
		if c.Rank() == 1 {
			c.Abort(3)
		}
		c.Barrier()
	})
	var ae *mpi.AbortError
	if !errors.As(err, &ae) || ae.Rank != 1 || ae.Code != 3 {
		t.Fatalf("got %v", err)
	}
}

func TestInvalidArguments(t *testing.T) {
	goroutineOnly(t, "an invalid argument aborts the MPI job")
	cases := map[string]func(c *mpi.Comm){
		"destination 5 out of range": func(c *mpi.Comm) { mpi.Send(c, []int{1}, 5, 0) },
		"tag -3 is negative":         func(c *mpi.Comm) { mpi.Send(c, []int{1}, 0, -3) },
		"root 2 out of range":        func(c *mpi.Comm) { mpi.Bcast(c, []int{1}, 2) },
		"need 2 x 3":                 func(c *mpi.Comm) { mpi.Allgather(c, []int{1, 2, 3}, make([]int, 5)) },
	}
	for want, body := range cases {
		err := mpi.Run(2, body)
		var re *mpi.RankError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), want) || !strings.Contains(re.Site, "p2p_test.go") {
			t.Errorf("%s: got %v", want, err)
		}
	}
	if err := mpi.Run(0, func(*mpi.Comm) {}); err == nil {
		t.Error("Run(0) succeeded")
	}
}
