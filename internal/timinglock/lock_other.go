//go:build !unix

package timinglock

import "testing"

// Acquire does nothing where there is no flock: timing tests may then
// overlap.
func Acquire() (release func(), err error) { return func() {}, nil }

// Hold does nothing where there is no flock.
func Hold(t testing.TB) { t.Helper() }

// AcquireShared does nothing where there is no flock.
func AcquireShared() (release func(), err error) { return func() {}, nil }
