package prediction

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestForEachConfigBoundsRanks runs configurations of up to twice
// ranksInFlight ranks on four goroutines: those running at once never
// have more ranks than the largest, every one runs, and done is never
// called twice at once.
func TestForEachConfigBoundsRanks(t *testing.T) {
	const k = ranksInFlight / 4
	ranks := []int{k, 2 * k, 3 * k, 4 * k, 5 * k, 6 * k, 7 * k, 8 * k, k, 2 * k, 4 * k, 8 * k}
	var mu sync.Mutex
	inFlight, peak, ran := 0, 0, 0
	var inDone atomic.Int32
	doneOrder := []int{}
	err := forEachConfig(context.Background(), len(ranks), 4, func(i int) int { return ranks[i] }, func(i int) error {
		mu.Lock()
		inFlight += ranks[i]
		peak = max(peak, inFlight)
		ran++
		mu.Unlock()
		time.Sleep(time.Millisecond)
		mu.Lock()
		inFlight -= ranks[i]
		mu.Unlock()
		return nil
	}, func(i int) {
		if inDone.Add(1) != 1 {
			t.Error("done called while another call runs")
		}
		doneOrder = append(doneOrder, i)
		time.Sleep(100 * time.Microsecond)
		inDone.Add(-1)
	})
	if err != nil {
		t.Fatal(err)
	}
	if ran != len(ranks) || len(doneOrder) != len(ranks) {
		t.Errorf("%d configurations ran, %d done, want %d", ran, len(doneOrder), len(ranks))
	}
	if peak > 8*k {
		t.Errorf("%d ranks simulated at once, more than the largest configuration's %d", peak, 8*k)
	}
	if peak <= 4*k {
		t.Errorf("at most %d ranks at once: the configurations never overlapped", peak)
	}
}

// TestForEachConfigFirstError: the error is the first failing
// configuration's in index order, whichever fails first in time, and
// configurations after it that had not started do not start.
func TestForEachConfigFirstError(t *testing.T) {
	var started sync.Map
	// The configurations after 3 wait until 3 has failed (and a little
	// more, for the sweep to record it): otherwise, on a loaded machine,
	// the sweep may start all of them before 3's goroutine even runs.
	failed3 := make(chan struct{})
	err := forEachConfig(context.Background(), 40, 3, func(int) int { return 1 }, func(i int) error {
		started.Store(i, true)
		switch {
		case i == 2:
			<-failed3
			time.Sleep(20 * time.Millisecond) // fails after 3 does
			return fmt.Errorf("config %d", i)
		case i == 3:
			close(failed3)
			return fmt.Errorf("config %d", i)
		case i > 3:
			<-failed3
			time.Sleep(50 * time.Millisecond)
		}
		return nil
	}, func(int) {})
	if err == nil || err.Error() != "config 2" {
		t.Fatalf("error %v, want config 2's", err)
	}
	if _, ok := started.Load(39); ok {
		t.Error("the last configuration started after an earlier one failed")
	}
}

// TestForEachConfigCancelled: a cancelled context stops the sweep with
// its error.
func TestForEachConfigCancelled(t *testing.T) {
	for _, jobs := range []int{1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		const n = 100
		ran := 0
		err := forEachConfig(ctx, n, jobs, func(int) int { return 1 }, func(i int) error {
			if i == 0 {
				cancel()
			}
			<-ctx.Done() // the others run until the first has cancelled
			return nil
		}, func(int) { ran++ })
		if !errors.Is(err, context.Canceled) {
			t.Errorf("jobs %d: error %v, want context.Canceled", jobs, err)
		}
		if ran > jobs {
			t.Errorf("jobs %d: %d configurations ran after the context was cancelled in the first", jobs, ran)
		}
	}
}
