package bench

import (
	"testing"

	"github.com/parpredict/parpredict/internal/timinglock"
)

// The calibration tests time ping-pongs and compute: they run alone, as
// the other timing tests do (internal/timinglock).
func TestMain(m *testing.M) { timinglock.Main(m) }
