package prediction

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
)

// TestUnprofiledEarlyReturn predicts pingpong at 2 ranks from a profile
// made with 1, which never exchanged: its check loop's early return (a
// corrupted byte) has no profile data. Taken half the time it would
// report corruption and Abort; an arm that returns from inside a loop is
// assumed not taken, and noted.
func TestUnprofiledEarlyReturn(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-reps", "2", "-max", "4096"}
	opts := SpeedupOptions{Dir: "..", Package: "./examples/pingpong", Args: args, NP: []int{1},
		ProfileOut: filepath.Join(t.TempDir(), "pingpong.profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	if oracle.prof.Meta.NP != 1 {
		t.Fatalf("profiled with %d ranks, want 1", oracle.prof.Meta.NP)
	}
	if _, _, err := simulate(mp, oracle, m, 2, 1, 2, commmodel.Block, args, false); err != nil {
		t.Fatalf("P=2 from a one-rank profile: %v", err)
	}
	if notes := strings.Join(oracle.Notes(), "\n"); !strings.Contains(notes, "returns from inside main.verify:loop") {
		t.Errorf("no note on the assumed early return:\n%s", notes)
	}
}
