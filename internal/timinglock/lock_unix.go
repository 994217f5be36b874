//go:build unix

package timinglock

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Acquire waits for the machine-wide timing lock and returns its release.
func Acquire() (release func(), err error) { return lock(syscall.LOCK_EX) }

// AcquireShared waits until no one holds the timing lock alone and returns
// the release of a shared hold: shared holders run beside each other but
// never beside a timing test.
func AcquireShared() (release func(), err error) { return lock(syscall.LOCK_SH) }

func lock(how int) (release func(), err error) {
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "parpredict-timing.lock"), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return func() {}, fmt.Errorf("timinglock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return func() {}, fmt.Errorf("timinglock: %w", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// Hold takes the timing lock for the rest of t (released by t.Cleanup).
// A test that cannot take it runs without it, and says so.
func Hold(t testing.TB) {
	t.Helper()
	release, err := Acquire()
	if err != nil {
		t.Logf("%v; timing without the lock", err)
	}
	t.Cleanup(release)
}
