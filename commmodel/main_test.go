package commmodel

import (
	"testing"

	"github.com/parpredict/parpredict/internal/timinglock"
)

// These tests take every core for seconds: never beside the timing tests.
func TestMain(m *testing.M) { timinglock.MainShared(m) }
