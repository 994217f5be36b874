package timinglock

import (
	"sync"
	"testing"
	"time"
)

// TestHoldExcludes checks that two holders do not overlap: flock locks
// belong to open files, so two opens in one process exclude each other as
// two processes do.
func TestHoldExcludes(t *testing.T) {
	privateLock(t)
	var mu sync.Mutex
	inside, overlapped := 0, false
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run("holder", func(t *testing.T) {
				Hold(t)
				mu.Lock()
				inside++
				overlapped = overlapped || inside > 1
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
				mu.Lock()
				inside--
				mu.Unlock()
			})
		}()
	}
	wg.Wait()
	if overlapped {
		t.Error("two holders of the timing lock ran at once")
	}
}

// TestSharedExcludesAlone checks that shared holders run beside each
// other while one who holds the lock alone waits for them.
func TestSharedExcludesAlone(t *testing.T) {
	privateLock(t)
	r1, err := AcquireShared()
	if err != nil {
		t.Skip(err)
	}
	r2, err := AcquireShared()
	if err != nil {
		t.Fatalf("a second shared hold waited or failed: %v", err)
	}
	got := make(chan struct{})
	go func() {
		release, _ := Acquire()
		close(got)
		release()
	}()
	r1()
	select {
	case <-got:
		t.Fatal("the lock was taken alone while a shared holder still held it")
	case <-time.After(50 * time.Millisecond):
	}
	r2()
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the lock was not taken alone after the shared holders let go")
	}
}

// privateLock points the lock at a file of the test's own, so that the
// timing tests of other packages, which hold the real one, cannot take it
// between the steps of a test.
func privateLock(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
}
