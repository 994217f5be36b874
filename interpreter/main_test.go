package interpreter

import (
	"testing"

	"github.com/parpredict/parpredict/internal/timinglock"
)

// TestMain keeps this package's tests, which take every core for seconds,
// from running beside a package's tests that time programs.
func TestMain(m *testing.M) { timinglock.MainShared(m) }
