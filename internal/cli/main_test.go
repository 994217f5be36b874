package cli

import (
	"testing"

	"github.com/parpredict/parpredict/internal/timinglock"
)

// TestMain keeps this package's tests, which profile programs and check
// what the times say, from running beside another package's.
func TestMain(m *testing.M) { timinglock.Main(m) }
