package prediction

import (
	"path/filepath"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
)

// Where each rank has a core, the page faults of a receive into fresh
// memory are paid inside the transfer that writes it: matmul's root
// waits while rank 1 faults in its Scatter block and its copy of B, as the
// goroutine backend's root does, and rank 1's compute does not hold them.
// Where the ranks share a core, they are rank 1's compute before each
// call (the core is the bottleneck whichever thread faults).
func TestFaultsInTransfersWhereRanksHaveCores(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a program")
	}
	args := []string{"-n", "200", "-check=false"}
	opts := SpeedupOptions{Dir: "..", Package: "./examples/matmul", NP: []int{2}, Args: args,
		ProfileArgs: args, ProfileOut: filepath.Join(t.TempDir(), "profile.json")}
	mp, oracle, m := prepareOnIBQDR(t, opts)
	m.Lockstep, m.Noise = nil, nil
	const pageTime = 50e-6
	// Rank 1's fresh buffers that receives write first: its 100 rows of A
	// (160,000 bytes) and B (320,000 bytes).
	const faults = (40 + 79) * pageTime
	sim := func(withFaults bool) *interpreter.Run {
		m.PageFaults = nil
		if withFaults {
			m.PageFaults = &commmodel.PageFaults{PageSize: 4096, Time: pageTime}
		}
		run, _, err := simulate(mp, oracle, m, 2, 1, 2, commmodel.Block, args, interpreter.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	cores := m.CoresPerSocket
	for _, tc := range []struct {
		name      string
		cores     int
		inCompute bool
	}{{"a core each", cores, false}, {"one core", 1, true}} {
		t.Run(tc.name, func(t *testing.T) {
			m.SocketsPerNode, m.CoresPerSocket = 1, tc.cores
			without, with := sim(false), sim(true)
			moved := with.Ranks[1].Compute - without.Ranks[1].Compute
			root := with.Ranks[0].Finish - without.Ranks[0].Finish
			if tc.inCompute {
				if moved < 0.95*faults {
					t.Errorf("rank 1's compute grew by %.4g s with %.4g s of faults; want them all there", moved, faults)
				}
				return
			}
			if moved > 0.05*faults {
				t.Errorf("rank 1's compute grew by %.4g s with %.4g s of faults; want them in its transfers", moved, faults)
			}
			if root < 0.9*faults {
				t.Errorf("the root finished %.4g s later with %.4g s of faults in rank 1's receives; want it to wait for them", root, faults)
			}
		})
	}
}
