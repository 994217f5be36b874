package profiler

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/profiler/probe"
)

func TestLauncherArgv(t *testing.T) {
	for _, tc := range []struct {
		launcher []string
		np       int
		want     []string
		hasNP    bool
	}{
		{[]string{"mpirun", "-np", "{np}"}, 4, []string{"mpirun", "-np", "4"}, true},
		{[]string{"srun", "--ntasks={np}"}, 2, []string{"srun", "--ntasks=2"}, true},
		{[]string{"mpirun", "-np", "3"}, 4, []string{"mpirun", "-np", "3"}, false},
	} {
		if got := launcherArgv(tc.launcher, tc.np); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("launcherArgv(%q, %d) = %q, want %q", tc.launcher, tc.np, got, tc.want)
		}
		if got := launcherHasNP(tc.launcher); got != tc.hasNP {
			t.Errorf("launcherHasNP(%q) = %v", tc.launcher, got)
		}
	}
}

// writeRankFiles writes one counters file per rank with the given Rank
// fields, as the processes of a launcher run do.
func writeRankFiles(t *testing.T, dir string, ranks ...int) string {
	t.Helper()
	pattern := filepath.Join(dir, "timed.counts."+probe.RankPlaceholder+".json")
	for i, r := range ranks {
		data, err := json.Marshal(probe.Counts{Rank: r, Regions: []probe.RegionCounts{{Execs: int64(i + 1)}}})
		if err != nil {
			t.Fatal(err)
		}
		path := strings.ReplaceAll(pattern, probe.RankPlaceholder, string(rune('0'+i)))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return pattern
}

func TestReadRankCounts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ranks []int
		want  int
		err   string // substring; "" = success
	}{
		{"three", []int{0, 1, 2}, 3, ""},
		{"any count", []int{0, 1}, 0, ""},
		{"none", nil, 0, "no process"},
		{"fewer than asked", []int{0, 1}, 4, "started 2 processes, the run wants 4"},
		{"no rank variable", []int{0, 0}, 2, "does not set OMPI_COMM_WORLD_RANK"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pattern := writeRankFiles(t, t.TempDir(), tc.ranks...)
			got, err := readRankCounts(pattern, tc.want)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want an error with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.ranks) || got[len(got)-1].Regions[0].Execs != int64(len(tc.ranks)) {
				t.Errorf("read %d files, want %d in rank order", len(got), len(tc.ranks))
			}
		})
	}
}

// Options that cannot work under a launcher are refused before anything
// is built: contention reruns need the launcher to take their rank counts,
// and a goroutine-backend build would run every rank in every process.
func TestLauncherOptionErrors(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{PPN: []int{1, 2}, Tags: []string{"openmpi"}, Launcher: []string{"mpirun", "-np", "2"}}, NPPlaceholder},
		{Options{Launcher: []string{"mpirun", "-np", NPPlaceholder}}, "tags openmpi or mpich"},
	} {
		tc.opts.Package = "./testdata/rows"
		_, err := Run(context.Background(), tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want an error with %q", tc.opts, err, tc.want)
		}
	}
}

// regionIndex finds a region of the instrumented rows program by ID.
func regionIndex(t *testing.T, in *Instrumented, id string) int {
	t.Helper()
	for _, r := range in.Regions {
		if r.ID == id {
			return r.Index
		}
	}
	var ids []string
	for _, r := range in.Regions {
		ids = append(ids, r.ID)
	}
	t.Fatalf("no region %s in %q", id, ids)
	return -1
}

// Regions of the rank body and what it calls add up over processes;
// main's own regions are rank 0's, less MPI's start-up and shut-down.
func TestMergeRankCounts(t *testing.T) {
	prog, err := LoadProgram(".", "./testdata/rows")
	if err != nil {
		t.Fatal(err)
	}
	in, err := Instrument(prog, ASTTargets(prog), InstrOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mainBody := -1
	for _, r := range in.Regions {
		if isEntry(r) && r.decl.Name() == "main" {
			mainBody = r.Index
		}
	}
	loop := regionIndex(t, in, "main.balanced:loop@main.go:44:2")
	once := processRegions(in)
	for id, want := range map[string]bool{
		"main.main:call@main.go:15:7":       true,  // flag.Int
		"main.main:then@main.go:17:2":       true,  // the argument check
		"main.main$1:func@main.go:21:11":    false, // the rank body
		"main.main$1:call@main.go:21:31":    false, // its call of run
		"main.run:func@main.go:24:1":        false, // called from the rank body only
		"main.balanced:loop@main.go:44:2":   false,
		"main.unbalanced:loop@main.go:60:3": false,
	} {
		if got := once[regionIndex(t, in, id)]; got != want {
			t.Errorf("%s: once per process %v, want %v", id, got, want)
		}
	}
	if !once[mainBody] {
		t.Errorf("main's body is not once per process")
	}
	for _, r := range in.Regions {
		if r.rank && once[r.Index] {
			t.Errorf("rank body %s counted once per process", r.ID)
		}
	}
	n := len(in.Regions)
	proc := func(rank int, mainNs, startNs, endNs, wallNs int64, lp probe.RegionCounts) *probe.Counts {
		c := &probe.Counts{Rank: rank, Regions: make([]probe.RegionCounts, n), StartNs: startNs, EndNs: endNs, WallNs: wallNs, TraceNs: 7}
		c.Regions[mainBody] = probe.RegionCounts{Execs: 1, Ns: mainNs, Timed: true}
		c.Regions[loop] = lp
		return c
	}
	costs := &probe.Costs{Timer: 50}
	r0 := proc(0, 1000, 100, 30, 2000, probe.RegionCounts{Execs: 1, Iters: 60, Ns: 400, MinIter: 60, MaxIter: 60, SqIter: 3600, Timed: true,
		VecNs: []int64{5, 6}, VecCnt: []int64{1, 1}})
	r0.Costs = costs
	r1 := proc(1, 1200, 90, 20, 2100, probe.RegionCounts{Execs: 2, Iters: 50, Ns: 500, MinIter: 20, MaxIter: 30, SqIter: 1300, Timed: true,
		VecNs: []int64{4, 7, 8}, VecCnt: []int64{2, 2, 1}})
	got := mergeRankCounts(in, []*probe.Counts{r0, r1})
	wantLoop := probe.RegionCounts{Execs: 3, Iters: 110, Ns: 900, MinIter: 20, MaxIter: 60, SqIter: 4900, Timed: true,
		VecNs: []int64{9, 13, 8}, VecCnt: []int64{3, 3, 1}}
	if !reflect.DeepEqual(got.Regions[loop], wantLoop) {
		t.Errorf("loop merged to %+v, want %+v", got.Regions[loop], wantLoop)
	}
	// main: rank 0's 1000 less rank 0's start-up 100 and the smallest end 20.
	if m := got.Regions[mainBody]; m.Execs != 1 || m.Ns != 880 {
		t.Errorf("main merged to %+v, want rank 0's execs and 880 ns", m)
	}
	if got.Costs != costs || got.TraceNs != 7 || got.WallNs != 2100-120 {
		t.Errorf("costs %v, trace %d, wall %d; want rank 0's costs and trace, wall 1980", got.Costs, got.TraceNs, got.WallNs)
	}
}

// TestProfileUnderMpirun profiles the rows program with the Open MPI
// backend under mpirun and with the goroutine backend: the merged counts
// are the goroutine run's (the counts are deterministic), and the trace
// has every rank's MPI calls.
func TestProfileUnderMpirun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with -tags openmpi and runs mpirun")
	}
	if _, err := exec.LookPath("mpirun"); err != nil {
		t.Skip("no mpirun: Open MPI is not installed")
	}
	if err := exec.Command("pkg-config", "--exists", "ompi").Run(); err != nil {
		t.Skip("pkg-config does not find ompi: no Open MPI headers")
	}
	launcher := []string{"mpirun", "--oversubscribe", "-np", NPPlaceholder}
	if os.Getuid() == 0 {
		launcher = append([]string{"mpirun", "--allow-run-as-root"}, launcher[1:]...)
	}
	dir := tempModule(t, "rows")
	args := []string{"-n", "60"}
	gor, err := Run(context.Background(), Options{Dir: dir, Package: ".", Args: args, NP: 2})
	if err != nil {
		t.Fatal(err)
	}
	ompi, err := Run(context.Background(), Options{Dir: dir, Package: ".", Args: args, NP: 2, Tags: []string{"openmpi"}, Launcher: launcher})
	if err != nil {
		t.Fatal(err)
	}
	if ompi.Meta.NP != 2 {
		t.Errorf("np %d, want 2", ompi.Meta.NP)
	}
	if len(ompi.Regions) != len(gor.Regions) {
		t.Fatalf("%d regions under mpirun, %d with goroutines", len(ompi.Regions), len(gor.Regions))
	}
	for i, g := range gor.Regions {
		o := ompi.Regions[i]
		if o.ID != g.ID || o.Execs != g.Execs || o.Iters != g.Iters || !reflect.DeepEqual(o.Trips, g.Trips) {
			t.Errorf("%s: execs %d iters %d trips %+v under mpirun; goroutines: %s execs %d iters %d trips %+v",
				o.ID, o.Execs, o.Iters, o.Trips, g.ID, g.Execs, g.Iters, g.Trips)
		}
	}
	calls := func(p *Profile) int64 {
		var n int64
		for _, s := range p.MPI {
			n += s.Calls
		}
		return n
	}
	if calls(ompi) != calls(gor) || calls(gor) == 0 {
		t.Errorf("%d MPI calls under mpirun, %d with goroutines", calls(ompi), calls(gor))
	}
	if ompi.Totals.MainNs <= 0 || ompi.Totals.WallNs <= 0 {
		t.Errorf("totals %+v", ompi.Totals)
	}
}
