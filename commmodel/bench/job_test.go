package bench

import (
	"errors"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/mpi"
)

func TestPlan(t *testing.T) {
	for _, tc := range []struct {
		name             string
		np, pairs        int
		job, cores       int
		size, wantNP, wp int
		note             string // a substring of the one note, "" = none
		err              bool
	}{
		{name: "goroutine default", np: 0, pairs: 2, job: 0, cores: 2, size: 8, wantNP: 2, wp: 2},
		{name: "goroutine many cores", np: 2, pairs: 1, job: 0, cores: 8, size: 32, wantNP: 2, wp: 1},
		{name: "goroutine np", np: 10, pairs: 2, job: 0, cores: 2, size: 10, wantNP: 10, wp: 2},
		{name: "mpi 4", np: 0, pairs: 2, job: 4, cores: 2, size: 4, wantNP: 4, wp: 2},
		{name: "mpi 2 skips contention", np: 0, pairs: 2, job: 2, cores: 2, size: 2, wantNP: 2, wp: 0, note: "contention not measured"},
		{name: "mpi 3 skips contention", np: 2, pairs: 2, job: 3, cores: 2, size: 3, wantNP: 2, wp: 0, note: "mpirun -np 4"},
		{name: "mpi 6 cuts pairs", np: 0, pairs: 4, job: 6, cores: 2, size: 6, wantNP: 6, wp: 3, note: "cf = 1..3 only"},
		{name: "mpi one pair asked", np: 0, pairs: 1, job: 2, cores: 2, size: 2, wantNP: 2, wp: 1},
		{name: "mpi np beyond job", np: 4, pairs: 0, job: 2, cores: 2, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Options{NP: tc.np, ContentionPairs: tc.pairs}.plan(tc.job, tc.cores)
			if tc.err {
				if err == nil || !strings.Contains(err.Error(), "mpirun -np") {
					t.Fatalf("got %v, want an error that says how to start the job", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.size != tc.size || s.np != tc.wantNP || s.pairs != tc.wp {
				t.Errorf("size %d np %d pairs %d, want %d %d %d", s.size, s.np, s.pairs, tc.size, tc.wantNP, tc.wp)
			}
			switch {
			case tc.note == "" && len(s.notes) != 0:
				t.Errorf("unexpected notes %q", s.notes)
			case tc.note != "" && (len(s.notes) != 1 || !strings.Contains(s.notes[0], tc.note)):
				t.Errorf("notes %q, want one with %q", s.notes, tc.note)
			}
		})
	}
}

func TestComputeRanks(t *testing.T) {
	for _, tc := range []struct {
		hosts []uint64
		cores int
		want  int
	}{
		{[]uint64{7, 7, 7, 7}, 2, 2},
		{[]uint64{7, 7}, 4, 2},
		{[]uint64{7, 9, 7, 9}, 4, 1}, // round-robin placement: rank 1 is elsewhere
		{[]uint64{7, 7, 9, 9}, 4, 2},
	} {
		if got := computeRanks(tc.hosts, tc.cores); got != tc.want {
			t.Errorf("computeRanks(%v, %d) = %d, want %d", tc.hosts, tc.cores, got, tc.want)
		}
	}
}

// part runs the body on the first n ranks only, on a communicator of
// their own.
func TestPartRunsFirstRanks(t *testing.T) {
	const size = 4
	for n := 1; n <= size; n++ {
		ran := make([]bool, size)
		err := mpi.Run(size, func(world *mpi.Comm) {
			part(world, n, func(c *mpi.Comm) {
				if c.Size() != n {
					t.Errorf("n=%d: part communicator of %d ranks", n, c.Size())
				}
				c.Barrier()
				ran[world.Rank()] = true
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		want := make([]bool, size)
		for r := range n {
			want[r] = true
		}
		if !reflect.DeepEqual(ran, want) {
			t.Errorf("n=%d: ranks that ran %v, want %v", n, ran, want)
		}
	}
}

// With the goroutine backend Calibrate is never on another rank.
func TestCalibrateGoroutineIsRoot(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchmarks")
	}
	o := DefaultOptions()
	o.Sizes, o.ContentionSizes, o.ContentionPairs = []int{0, 1024, 65536}, []int{65536}, 2
	// Few launches keep the test short; with 8, all of a contention
	// point's launches were once late (4 ranks on 2 busy cores), its ratio
	// was left out and the table had one column.
	o.Params.MaxLaunches = 16
	m, rep, err := Calibrate(o)
	if err == nil && (len(m.Channels.Memory.Table) != 1 || len(m.Channels.Memory.Table[0].Ratios) < 2) {
		// A point none of whose launches was valid is left out by design;
		// on cores busy with other packages' tests (CI) that still
		// happened with 16 launches, to one point and (2026-11-23, CI of
		// 2a6540a) to both: calibrate once more.
		t.Logf("contention table %+v: a point had no valid launch; calibrating again", m.Channels.Memory.Table)
		m, rep, err = Calibrate(o)
	}
	if errors.Is(err, ErrOtherRank) || err != nil {
		t.Fatal(err)
	}
	if rep.MPI || rep.Ranks != max(2, 4, oversubscribed*rep.Cores) || rep.Hosts != 1 || !rep.PairSameHost || len(rep.Notes) != 0 {
		t.Errorf("report shape: mpi %v ranks %d hosts %d pair on one host %v notes %q", rep.MPI, rep.Ranks, rep.Hosts, rep.PairSameHost, rep.Notes)
	}
	if m.Nodes != 1 || len(m.Channels.Memory.Table) != 1 || len(m.Channels.Memory.Table[0].Ratios) != 2 {
		t.Errorf("machine: %d nodes, contention table %+v", m.Nodes, m.Channels.Memory.Table)
	}
	// Page faults, on the platforms that can map fresh memory: a time per
	// page (from 10 ns to 1 ms is plausible for any machine) and a factor
	// per rank count from 1 to the cores (the compute suite's counts).
	if pf := m.PageFaults; runtime.GOOS == "linux" && (pf == nil || pf.PageSize != os.Getpagesize() || pf.Time < 1e-8 || pf.Time > 1e-3 ||
		len(pf.Concurrent) != rep.Cores || pf.Concurrent[0] != (commmodel.SlowdownRow{PPN: 1, Factor: 1})) {
		t.Errorf("page faults %+v", pf)
	}
	// Noise: every rank of the node read the clock; a machine with no
	// detour above the threshold gets no noise section. What there is
	// must load.
	noise := 0
	for _, r := range rep.Rows {
		if r.Kind == "noise" {
			noise++
			if r.Ranks != rep.Cores || !(r.Threshold >= noiseMinThreshold) || len(r.Detours) > noiseBins || r.Valid > r.Launches {
				t.Errorf("noise row %+v", r)
			}
		}
	}
	if noise != 1 {
		t.Errorf("%d noise rows, want 1", noise)
	}
	if n := m.Noise; n != nil {
		data, err := MarshalMachine(m, "")
		if err != nil {
			t.Fatal(err)
		}
		if back, err := commmodel.Parse("calibrated.yaml", data); err != nil || back.Noise == nil || back.Noise.Rate != n.Rate {
			t.Errorf("noise %+v does not load back: %v", n, err)
		}
	}
}
