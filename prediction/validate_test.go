package prediction

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/commmodel/bench"
	"github.com/parpredict/parpredict/internal/host"
	"github.com/parpredict/parpredict/profiler"
)

// TestMachineDrift compares the real runs' bodies at the profile's rank
// count with the profile's runs without probes, and only then.
func TestMachineDrift(t *testing.T) {
	prof := &profiler.Profile{Meta: profiler.Meta{NP: 1, Args: []string{"-n", "96"}},
		Totals: profiler.Totals{PlainBodyNs: 0.5e9}}
	bodies := map[int][]float64{1: {0.7, 0.6, 0.65}, 2: {0.4}}
	d := machineDrift(prof, []string{"-n", "96"}, bodies)
	if d == nil || d.P != 1 || d.Profiled != 0.5 || d.Measured != 0.6 || d.Ratio != 0.6/0.5 {
		t.Errorf("drift %+v, want P 1, profiled 0.5 s, measured 0.6 s (the fastest run), ratio 1.2", d)
	}
	for name, c := range map[string]struct {
		prof   profiler.Profile
		args   []string
		bodies map[int][]float64
	}{
		"other arguments":        {*prof, []string{"-n", "200"}, bodies},
		"profile's count un-run": {*prof, []string{"-n", "96"}, map[int][]float64{2: {0.4}}},
		"no plain runs":          {profiler.Profile{Meta: prof.Meta}, []string{"-n", "96"}, bodies},
	} {
		if d := machineDrift(&c.prof, c.args, c.bodies); d != nil {
			t.Errorf("%s: drift %+v, want none", name, d)
		}
	}
}

// TestValidateReportsDrift validates heat at P = 1 with its profile made
// just before: the report compares the machine's speed in the real runs
// with the profile's runs of the same program, and finds them alike
// within a factor the machine's noise cannot reach.
func TestValidateReportsDrift(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles and runs a program")
	}
	args := []string{"-n", "64", "-steps", "20", "-check=false"}
	v, err := Validate(context.Background(), ValidateOptions{Dir: "..", Package: "./examples/heat", Args: args, NP: []int{1}, Reps: 2,
		Interval: 1, Profile: filepath.Join(t.TempDir(), "heat.profile.json")})
	if err != nil {
		t.Fatal(err)
	}
	d := v.Report.Drift
	if d == nil {
		t.Fatal("no machine drift in the report of a validation with the profile's arguments at its rank count")
	}
	if d.P != 1 || !(d.Profiled > 0) || !(d.Measured > 0) || d.Ratio < 0.25 || d.Ratio > 4 {
		t.Errorf("drift %+v: want P 1, both times positive, a ratio between 0.25 and 4", d)
	}
	// The prediction's notes come with it, as predict speedup lists them.
	if len(v.Notes) == 0 || !strings.HasPrefix(v.Notes[0], "compute slowdown with the ranks on a node") {
		t.Errorf("notes %q: want the contention factors' source first", v.Notes)
	}
}

// TestValidateReprofilesAfterDrift: a profile whose runs without probes
// read ten times as long as the real runs (a slow spell while profiling;
// twice read as no drift when the machine was itself twice as slow during
// the test's runs, shared with other tests) is
// made again after the runs with Reprofile set, and the report keeps the
// drift that made it so; without Reprofile it is kept and the drift
// reported.
func TestValidateReprofilesAfterDrift(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles and runs a program")
	}
	args := []string{"-n", "64", "-steps", "20", "-check=false"}
	path := filepath.Join(t.TempDir(), "heat.profile.json")
	opts := ValidateOptions{Dir: "..", Package: "./examples/heat", Args: args, NP: []int{1}, Reps: 2, Interval: 1, Profile: path}
	if _, err := Validate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	prof, err := profiler.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	slow := 10 * prof.Totals.PlainBodyNs
	prof.Totals.PlainBodyNs = slow
	if err := prof.Save(path); err != nil {
		t.Fatal(err)
	}

	v, err := Validate(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if v.Report.Reprofiled != nil || v.Report.Drift == nil || v.Report.Drift.Profiled != slow*1e-9 {
		t.Fatalf("without Reprofile: reprofiled %+v, drift %+v; want the slowed profile kept", v.Report.Reprofiled, v.Report.Drift)
	}

	opts.Reprofile = 0.1
	var log []string
	opts.Log = func(format string, a ...any) { log = append(log, fmt.Sprintf(format, a...)) }
	if v, err = Validate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	again, err := profiler.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	r := v.Report
	if r.Reprofiled == nil || r.Reprofiled.Profiled != slow*1e-9 || again.Totals.PlainBodyNs == slow {
		t.Fatalf("with Reprofile 0.1: reprofiled %+v, profile's plain bodies %g ns (slowed %g); want the profile made again", r.Reprofiled, again.Totals.PlainBodyNs, slow)
	}
	if r.Drift == nil || r.Drift.Profiled != again.Totals.PlainBodyNs*1e-9 {
		t.Errorf("drift %+v: want it against the new profile (%g ns)", r.Drift, again.Totals.PlainBodyNs)
	}
	if !slices.ContainsFunc(log, func(l string) bool { return strings.Contains(l, "profiling again") }) {
		t.Errorf("log %q: want it to say the program is profiled again", log)
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "profile: made again after the runs") {
		t.Errorf("report:\n%s\nwant the line saying the profile was made again", text.String())
	}
}

// TestMachineMismatch finds a machine file calibrated on another CPU or
// core count, or not calibrated at all, and none where `predict bench`
// wrote it on a computer like this one.
func TestMachineMismatch(t *testing.T) {
	m, err := commmodel.Load("local")
	if err != nil {
		t.Fatal(err)
	}
	cpu, cores := m.Provenance["cpu"], m.CoresPerNode()
	if cpu == "" {
		t.Fatal("the local preset has no cpu in its provenance")
	}
	if got := machineMismatch(m, cpu, cores); got != nil {
		t.Errorf("same CPU and cores: mismatch %+v, want none", got)
	}
	got := machineMismatch(m, "Other CPU", cores)
	if got == nil || got.CPU != cpu || got.HostCPU != "Other CPU" || got.Cores != cores || got.Date != m.Provenance["date"] || got.Machine != m.Name {
		t.Errorf("other CPU: mismatch %+v, want the file's %q and this computer's name", got, cpu)
	}
	if got := machineMismatch(m, cpu, cores+2); got == nil || got.HostCores != cores+2 {
		t.Errorf("other core count: mismatch %+v, want this computer's %d cores", got, cores+2)
	}
	preset, err := commmodel.Load("ib-qdr")
	if err != nil {
		t.Fatal(err)
	}
	if got := machineMismatch(preset, cpu, preset.CoresPerNode()); got == nil || got.CPU != "" {
		t.Errorf("a paper's preset: mismatch %+v, want one without a calibrated CPU", got)
	}
}

// TestValidateCalibrates measures this computer before validating: the
// machine the prediction used is this computer's (no mismatch, whatever
// the committed local file says), and the progress shows both phases.
func TestValidateCalibrates(t *testing.T) {
	if testing.Short() {
		t.Skip("calibrates, profiles and runs a program")
	}
	var phases []string
	var logged strings.Builder
	args := []string{"-n", "64", "-steps", "20", "-check=false"}
	v, err := Validate(context.Background(), ValidateOptions{Dir: "..", Package: "./examples/heat", Args: args, NP: []int{1}, Reps: 1,
		Interval: 1, Calibrate: true, Profile: filepath.Join(t.TempDir(), "heat.profile.json"),
		Progress: func(_, _ int, what string) {
			if p, _, _ := strings.Cut(what, " "); len(phases) == 0 || phases[len(phases)-1] != p {
				phases = append(phases, p)
			}
		},
		Log: func(format string, a ...any) { fmt.Fprintf(&logged, format+"\n", a...) }})
	if err != nil {
		t.Fatal(err)
	}
	if v.Report.Mismatch != nil {
		t.Errorf("a machine calibrated here: mismatch %+v", v.Report.Mismatch)
	}
	if !strings.Contains(logged.String(), "calibrated on "+host.CPUModel()) {
		t.Errorf("log %q does not name this computer's calibration", logged.String())
	}
	// validate has no --profile-args to suggest.
	if !strings.Contains(logged.String(), "profiling ./examples/heat") || strings.Contains(logged.String(), "--profile-args") {
		t.Errorf("log %q: want the profile run told, without --profile-args", logged.String())
	}
	if len(phases) < 2 || phases[0] != "calibrate" {
		t.Errorf("progress phases %v, want the calibration first, then the runs", phases)
	}
}

// TestValidateCalibratesStaleMachine: a machine file of this computer's
// CPU and cores whose point-to-point times are a hundred times too slow
// (made in a slow spell) is found stale before the runs, and with
// CalibrateStale the validation measures this computer and predicts with
// that, and the report says so.
func TestValidateCalibratesStaleMachine(t *testing.T) {
	if testing.Short() {
		t.Skip("calibrates, profiles and runs a program")
	}
	if runtime.NumCPU() < 2 {
		t.Skip("the staleness check needs two cores")
	}
	dir := t.TempDir()
	file := writeLocalMachine(t, filepath.Join(dir, "slow.yaml"), "a slow spell", func(m *commmodel.Machine) {
		m.Provenance["cpu"], m.SocketsPerNode, m.CoresPerSocket = host.CPUModel(), 1, runtime.NumCPU()
		for _, l := range []*commmodel.LevelParams{&m.Levels.Socket, &m.Levels.Node, &m.Levels.Network} {
			l.Latency *= 100
			l.Bandwidth /= 100
		}
	})
	var logged strings.Builder
	args := []string{"-n", "64", "-steps", "20", "-check=false"}
	v, err := Validate(context.Background(), ValidateOptions{Dir: "..", Package: "./examples/heat", Args: args, NP: []int{1}, Reps: 1,
		Interval: 1, Machine: file, CalibrateStale: true, Profile: filepath.Join(dir, "heat.profile.json"),
		Log: func(format string, a ...any) { fmt.Fprintf(&logged, format+"\n", a...) }})
	if err != nil {
		t.Fatal(err)
	}
	st := v.Report.Stale
	if st == nil || !st.Calibrated || st.Ratio > 0.1 {
		t.Fatalf("stale %+v: want the slowed file found stale and this computer calibrated instead", st)
	}
	if !strings.Contains(logged.String(), "calibrated on "+host.CPUModel()) || !strings.Contains(st.Describe(), "so validate measured it") {
		t.Errorf("log %q, report line %q: want the calibration named", logged.String(), st.Describe())
	}
}

// TestMachineStale calls a machine file stale when a ping-pong measured
// now takes half as long again as the file says, or two thirds as long,
// at either size, names the size farthest off, and stays quiet within
// that.
func TestMachineStale(t *testing.T) {
	m, err := commmodel.Load("ib-qdr")
	if err != nil {
		t.Fatal(err)
	}
	pl, err := m.Place(2, 1, 2, commmodel.Block)
	if err != nil {
		t.Fatal(err)
	}
	scaled := func(f ...float64) func([]int) ([]float64, error) {
		return func(sizes []int) ([]float64, error) {
			out := make([]float64, len(sizes))
			for i, n := range sizes {
				out[i] = f[i] * m.Message(pl, 0, 1, n).Total()
			}
			return out, nil
		}
	}
	for _, tc := range []struct {
		name string
		f    []float64
		want float64 // 0: not stale
	}{
		{"as the file", []float64{1, 1}, 0},
		{"within", []float64{1.3, 0.8}, 0},
		{"latency doubled", []float64{2, 1.2}, 2},
		{"bandwidth faster", []float64{1.1, 0.5}, 0.5},
	} {
		s, err := machineStale(m, scaled(tc.f...))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tc.want == 0 && s != nil:
			t.Errorf("%s: stale (%s), want not", tc.name, s.Describe())
		case tc.want != 0 && s == nil:
			t.Errorf("%s: not stale, want ratio %g", tc.name, tc.want)
		case s != nil && math.Abs(s.Ratio-tc.want) > 1e-9:
			t.Errorf("%s: ratio %g, want %g", tc.name, s.Ratio, tc.want)
		}
	}
	if _, err := machineStale(m, func([]int) ([]float64, error) { return nil, errors.New("no") }); err == nil {
		t.Error("a failed measurement gave no error")
	}
}

// TestValidateKeepsRunsOfFailedPredictions validates a program whose
// ranks all Send 32 KiB before they receive: it runs on the goroutine
// backend, which queues such a message after its rendezvous wait, and
// its prediction on the local machine without that wait deadlocks at
// P = 2. The real runs are reported beside the failure, and P = 1 is
// compared as usual.
func TestValidateKeepsRunsOfFailedPredictions(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles and runs a program")
	}
	// The local machine without its rendezvous wait: an MPI library's
	// rendezvous, which waits for good.
	dir := t.TempDir()
	machine := writeLocalMachine(t, filepath.Join(dir, "no-wait.yaml"), "", func(m *commmodel.Machine) { m.RendezvousWait = 0 })
	v, err := Validate(context.Background(), ValidateOptions{Dir: "..", Package: "./prediction/testdata/sendfirst", NP: []int{1, 2}, Reps: 1,
		Interval: 1, Machine: machine, Profile: filepath.Join(dir, "sendfirst.profile.json")})
	if err != nil {
		t.Fatal(err)
	}
	r := v.Report
	if len(r.Rows) != 1 || r.Rows[0].P != 1 || len(r.Failed) != 1 || r.Failed[0].P != 2 || !(r.Failed[0].Actual > 0) ||
		!strings.Contains(r.Failed[0].Error, "deadlock") {
		t.Fatalf("rows %+v, failed %+v", r.Rows, r.Failed)
	}
	var out strings.Builder
	if err := r.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "prediction failed: P = 2 (1x2), which ran in") {
		t.Errorf("report:\n%s", out.String())
	}
}

// TestWholeRunIsTheRanks validates a program without intervals as a whole
// run: the time compared is from the mpi package's start to the last
// rank's end, read from the run's trace, as the simulation has it (the
// process's start-up and exit are in no region), and the ranks' bodies
// tell the machine's drift since profiling, as for an interval.
func TestWholeRunIsTheRanks(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles and runs a program")
	}
	args := []string{"-steps", "20"}
	v, err := Validate(context.Background(), ValidateOptions{Dir: "..", Package: "./prediction/testdata/branchtests", Args: args,
		NP: []int{1, 2}, Reps: 2, Profile: filepath.Join(t.TempDir(), "branchtests.profile.json")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.What, "last rank's end") {
		t.Errorf("compared %q, want the ranks' whole run", v.What)
	}
	if v.Report.Drift == nil {
		t.Fatal("no machine drift: the ranks' bodies were not read from the whole runs")
	}
	for p, runs := range v.Runs {
		for _, r := range runs {
			// A run of 20 short steps takes a few ms in its ranks; the
			// process, started and ended, takes more than its bodies.
			if !(r > 0 && r >= v.Report.Drift.Measured/float64(p)/2) {
				t.Errorf("P = %d: whole run %g s, the ranks' bodies at P = 1 %g s", p, r, v.Report.Drift.Measured)
			}
		}
	}
}

// TestMarksInterval: validate compares interval 1 by default only where
// the program marks it, known before any run: heat marks 1 and not 2, a
// program without intervals none, and one whose id is computed (split's
// BeginInterval(id)) may mark any.
func TestMarksInterval(t *testing.T) {
	for _, tt := range []struct {
		pkg  string
		id   int
		want bool
	}{
		{"./examples/heat", 1, true},
		{"./examples/heat", 2, false},
		{"./prediction/testdata/closurekernel", 1, false},
		{"./interpreter/testdata/split", 7, true},
	} {
		mp, _, err := loadPlan("..", tt.pkg)
		if err != nil {
			t.Fatal(err)
		}
		if got := marksInterval(mp, tt.id); got != tt.want {
			t.Errorf("marksInterval(%s, %d) = %v, want %v", tt.pkg, tt.id, got, tt.want)
		}
	}
}

// TestValidateUnmarkedInterval: asked for an interval the program never
// marks, validate says so before profiling or running anything.
func TestValidateUnmarkedInterval(t *testing.T) {
	profile := filepath.Join(t.TempDir(), "p.json")
	_, err := Validate(context.Background(), ValidateOptions{Dir: "..", Package: "./prediction/testdata/closurekernel",
		NP: []int{1}, Interval: 1, Machine: "ib-qdr", Profile: profile})
	if err == nil || !strings.Contains(err.Error(), "never marks interval 1") || !strings.Contains(err.Error(), "--interval 0") {
		t.Fatalf("error %v, want one saying the program never marks interval 1", err)
	}
	if _, err := os.Stat(profile); err == nil {
		t.Error("a profile was made before the interval was found missing")
	}
}

// writeLocalMachine writes the local preset, changed by change, to path
// as predict bench would (comment at its head), and returns path.
func writeLocalMachine(t *testing.T, path, comment string, change func(*commmodel.Machine)) string {
	t.Helper()
	m, err := commmodel.Load("local")
	if err != nil {
		t.Fatal(err)
	}
	change(m)
	data, err := bench.MarshalMachine(m, comment)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// What the simulations assumed (here, a loop over random data that
// follows the profile's frequency) is in the validation as in a speedup,
// and in its report's JSON: a validation far off can say why.
func TestValidateListsAssumptions(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles and runs a program")
	}
	dir := t.TempDir()
	v, err := Validate(context.Background(), ValidateOptions{Dir: "..", Package: "./prediction/testdata/converge", NP: []int{1, 2}, Reps: 1,
		Interval: 1, Machine: "local", Profile: filepath.Join(dir, "converge.profile.json")})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Assumptions) == 0 || !strings.Contains(v.Assumptions[0].What, "profiled frequency") {
		t.Fatalf("assumptions %+v, want the loop's branch at its profiled frequency", v.Assumptions)
	}
	b, err := json.Marshal(v.Report)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"assumptions":[{"pos":`) || !strings.Contains(string(b), `"notes":[`) {
		t.Errorf("the report's JSON lacks the assumptions or notes: %s", b)
	}
}
