package prediction

import (
	"bytes"
	"context"
	"fmt"
	"go/constant"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/commmodel/bench"
	"github.com/parpredict/parpredict/internal/host"
	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/model"
	"github.com/parpredict/parpredict/mpi"
	"github.com/parpredict/parpredict/profiler"
	"github.com/parpredict/parpredict/report"
	"golang.org/x/tools/go/ssa"
)

// ValidateOptions say what to run and predict.
type ValidateOptions struct {
	Dir     string
	Package string
	Args    []string
	NP      []int
	Machine string // the machine file describing this computer (default "local")
	// Calibrate measures this computer with predict bench's default
	// suite first and predicts with that description instead of Machine.
	Calibrate bool
	Profile   string // as SpeedupOptions.Profile
	Reps      int    // real runs per rank count, taking turns; the fastest is kept (0: 3)
	// Interval is the user interval compared (the program's main loop,
	// marked with BeginInterval/EndInterval); 0 compares whole runs;
	// AutoInterval interval 1 where the program marks it, else whole runs.
	Interval int
	MaxSteps int64 // as SpeedupOptions.MaxSteps
	// Reprofile is how far (a share, either way) the machine's speed in
	// the real runs may be from the profile's before the profile is made
	// again, once, after the runs, and the configurations predicted with
	// it: a profile made in a slow spell of the machine moves every
	// prediction by as much (0: never).
	Reprofile float64
	// CalibrateStale measures this computer (as Calibrate) when the
	// machine file's ping-pong is staleRatio or more from one measured
	// before the runs, and predicts with that: a file made in a slow
	// spell of the machine (a virtual machine's cores placed apart for a
	// while) moves every predicted exchange by as much.
	CalibrateStale bool
	Progress       func(done, total int, what string)
	Log            func(format string, args ...any)
}

// Validation is the result of Validate.
type Validation struct {
	Report *report.ValidationReport
	What   string // what was timed, for the report's reader
	Runs   map[int][]float64
	// Notes are the prediction's notes, as predict speedup lists them:
	// where the contention factors come from, compute scaled to the
	// program without probes, what the profile could not say.
	Notes []string
	// Assumptions are what the simulations assumed where the model could
	// not tell, as predict speedup lists them (a count the rank does not
	// know taken from the profile's run, say).
	Assumptions []interpreter.Assumption
}

// Validate runs the program for real with the goroutine backend at each
// rank count on this computer, predicts the same configurations (all ranks
// on one node, oversubscribed beyond its cores) with a profile made here
// and the machine file of this computer, and compares them.
func Validate(ctx context.Context, opts ValidateOptions) (*Validation, error) {
	logf := opts.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if opts.Machine == "" {
		opts.Machine = "local"
	}
	if opts.Reps <= 0 {
		opts.Reps = 3
	}
	m, err := validationMachine(opts, logf)
	if err != nil {
		return nil, err
	}
	// Said before the runs as well as under the table: the runs take
	// minutes, and the fix (predict bench) is best done first. The
	// goroutine backend's ranks, which bench calibrates and validate
	// runs, see runtime.NumCPU cores.
	mismatch := machineMismatch(m, host.CPUModel(), runtime.NumCPU())
	if mismatch != nil {
		logf("%s", mismatch.Describe())
	}
	// A file of this very CPU can still be another day's host: check its
	// ping-pong against one measured now (a few seconds).
	var stale *report.MachineStale
	if mismatch == nil && !opts.Calibrate {
		measure := func(sizes []int) ([]float64, error) { return bench.PingPongNow(sizes, staleRounds) }
		if stale, err = machineStale(m, measure); err != nil {
			logf("could not check the machine file's ping-pong against this computer: %v", err)
		} else if stale != nil {
			stale.Calibrated = opts.CalibrateStale
			logf("%s", stale.Describe())
			if stale.Calibrated {
				cal := opts
				cal.Calibrate = true
				if m, err = validationMachine(cal, logf); err != nil {
					return nil, err
				}
			}
		}
	}
	// A profile made here measures how each region slows down with the
	// ranks sharing this computer's cores.
	// ProfileArgs as the runs': the same profile, and no hint at
	// --profile-args, which validate does not have.
	popts := SpeedupOptions{Dir: opts.Dir, Package: opts.Package, Args: opts.Args, ProfileArgs: opts.Args, Profile: opts.Profile, NP: opts.NP,
		ProfilePPN: contentionRanks(runtime.NumCPU()), MaxSteps: opts.MaxSteps}
	mp, lp, err := loadPlan(opts.Dir, opts.Package)
	if err != nil {
		return nil, err
	}
	warnUnsupported(mp, logf)
	// Said before the profile and the runs, which take minutes.
	switch {
	case opts.Interval == AutoInterval && marksInterval(mp, 1):
		opts.Interval = 1
	case opts.Interval == AutoInterval:
		opts.Interval = 0
		logf("%s marks no interval 1 (BeginInterval/EndInterval): comparing whole runs", opts.Package)
	case opts.Interval > 0 && !marksInterval(mp, opts.Interval):
		return nil, fmt.Errorf("prediction: %s never marks interval %d (no BeginInterval(%d) in its code); mark its main loop with c.BeginInterval(%d) and c.EndInterval(%d), or compare whole runs with --interval 0",
			opts.Package, opts.Interval, opts.Interval, opts.Interval, opts.Interval)
	}
	oracle, err := profiledOracle(ctx, mp, lp, popts, logf)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "predict-validate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "program")
	buildDir, pkg, err := model.PackageDir(opts.Dir, opts.Package)
	if err != nil {
		return nil, err
	}
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg)
	build.Dir = buildDir
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("prediction: building %s: %v\n%s", opts.Package, err, out)
	}
	v := &Validation{Runs: map[int][]float64{}, What: "whole run (to the last rank's end, from the run's trace and from the simulation)"}
	if opts.Interval > 0 {
		v.What = "interval " + strconv.Itoa(opts.Interval) + " (from the run's trace and from the simulation)"
	}
	bodies := map[int][]float64{} // the ranks' bodies of each run, summed
	total, done := len(opts.NP)*(opts.Reps+1), 0
	// The rank counts take turns, so that a slow spell of the machine
	// does not fall on the runs of one count.
	for k := range opts.Reps {
		for _, p := range opts.NP {
			done++
			if opts.Progress != nil {
				opts.Progress(done, total, fmt.Sprintf("run P=%d (%d/%d)", p, k+1, opts.Reps))
			}
			t, body, err := realRun(ctx, bin, tmp, p, opts)
			if err != nil {
				return nil, err
			}
			v.Runs[p] = append(v.Runs[p], t)
			if body > 0 {
				bodies[p] = append(bodies[p], body)
			}
		}
	}
	drift := machineDrift(oracle.prof, opts.Args, bodies)
	var reprofiled *report.MachineDrift
	if drift != nil && opts.Reprofile > 0 && math.Abs(drift.Ratio-1) > opts.Reprofile {
		// The runs are kept; the profile is what was measured at another
		// speed of the machine.
		logf("the ranks' bodies at P = %d took %.3g s in the runs, %.3g s when profiled: profiling again", drift.P, drift.Measured, drift.Profiled)
		if opts.Progress != nil {
			opts.Progress(done, total, "profile again")
		}
		popts.remake = true
		first := oracle
		if oracle, err = profiledOracle(ctx, mp, lp, popts, logf); err != nil {
			return nil, err
		}
		reprofiled, drift = drift, machineDrift(oracle.prof, opts.Args, bodies)
		// A second slow spell can make the new profile further off than
		// the first (10 % before, 28-46 % after in
		// docs/validation/outside-2026-11-29, fault 3): the first stays.
		if drift != nil && math.Abs(math.Log(drift.Ratio)) > math.Abs(math.Log(reprofiled.Ratio)) {
			logf("the new profile is further off (the ranks' bodies took %.3g s when profiled again, %.3g s in the runs): the first one is kept", drift.Profiled, drift.Measured)
			if err := keepProfile(first.prof, popts); err != nil {
				return nil, err
			}
			oracle, drift, reprofiled = first, reprofiled, nil
		}
	}
	progress := func(what string) {
		done++
		if opts.Progress != nil {
			opts.Progress(done, total, what)
		}
	}
	rep, selfNote, assumed, err := predictRuns(mp, oracle, m, opts, v.Runs, progress)
	if err != nil {
		return nil, err
	}
	v.Assumptions = assumed
	v.Report = rep
	v.Report.Drift, v.Report.Reprofiled = drift, reprofiled
	v.Report.Mismatch = mismatch
	v.Report.Stale = stale
	v.Notes = append([]string{oracle.nodeContention(m).source()}, oracle.Notes()...)
	if selfNote != "" {
		v.Notes = append([]string{selfNote}, v.Notes...)
	}
	v.Report.Caveats = caveats(v.Assumptions, v.Notes)
	return v, nil
}

// predictRuns simulates each rank count of the runs (real times by rank
// count; all ranks on one node) and compares it with the fastest run. It
// also returns the self-check's note at P = 1, if any, and what the
// simulations assumed.
func predictRuns(mp *model.Program, oracle *Oracle, m *commmodel.Machine, opts ValidateOptions, runs map[int][]float64, progress func(string)) (*report.ValidationReport, string, []interpreter.Assumption, error) {
	var assumed assumptionSet
	actual := report.Sweep{Program: opts.Package, Machine: "this computer", Args: opts.Args}
	predicted := report.Sweep{Program: opts.Package, Machine: m.Name, Args: opts.Args}
	selfNote := ""
	var failed []report.ValidationFailure
	var firstErr error
	for _, p := range opts.NP {
		cfg := report.Config{P: p, Nodes: 1, PPN: p}
		// The fastest run is the least disturbed by other processes, as
		// the profile keeps each region's fastest time.
		fastest := slices.Min(runs[p])
		progress(fmt.Sprintf("predict P=%d", p))
		run, progs, err := simulate(mp, oracle, m, p, 1, p, commmodel.Block, opts.Args, interpreter.Options{})
		if progs != nil {
			assumed.add(configLabel(p, p, false), progs.Assumptions())
		}
		if err != nil {
			// The real runs are kept: a prediction that deadlocks where
			// the goroutine backend buffered a large Send is worth seeing
			// beside the configurations that were predicted.
			failed = append(failed, report.ValidationFailure{Config: cfg, Actual: fastest, Error: failureMessage(cfg, err)})
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		actual.Points = append(actual.Points, report.Point{Config: cfg, Time: fastest})
		if p == 1 {
			selfNote = oracle.selfCheck(maxCompute(run))
		}
		t := run.Makespan
		if opts.Interval > 0 {
			var ok bool
			if t, ok = run.Interval(opts.Interval); !ok {
				return nil, "", nil, fmt.Errorf("prediction: the simulated program never marks interval %d; use --interval 0 to compare whole runs", opts.Interval)
			}
		}
		predicted.Points = append(predicted.Points, report.Point{Config: cfg, Time: t})
	}
	if len(predicted.Points) == 0 {
		return nil, "", nil, firstErr
	}
	r, err := report.Validation(actual, predicted)
	if err != nil {
		return nil, "", nil, err
	}
	r.Failed = failed
	for i := range r.Rows {
		r.Rows[i].Runs = runs[r.Rows[i].P]
	}
	return r, selfNote, assumed.sorted(), nil
}

// validationMachine is the description of this computer the validation
// predicts with: opts.Machine, or with opts.Calibrate one measured now.
func validationMachine(opts ValidateOptions, logf func(string, ...any)) (*commmodel.Machine, error) {
	if !opts.Calibrate {
		return commmodel.Load(opts.Machine)
	}
	logf("calibrating this computer (predict bench's suite; not saved: run predict bench to keep it)")
	o := bench.DefaultOptions()
	if opts.Progress != nil {
		o.Progress = func(done, total int, what string) { opts.Progress(done, total, "calibrate "+what) }
	}
	m, rep, err := bench.Calibrate(o)
	if err != nil {
		return nil, fmt.Errorf("prediction: calibrating this computer: %w", err)
	}
	logf("calibrated on %s, %d cores, in %.1f s", rep.CPU, rep.Cores, rep.Seconds)
	return m, nil
}

// machineMismatch compares the machine file's calibration record (what
// `predict bench` writes in its provenance) with this computer: nil when
// the file was calibrated on a computer with this CPU and core count.
func machineMismatch(m *commmodel.Machine, cpu string, cores int) *report.MachineMismatch {
	calibrated := m.Provenance["cpu"]
	if calibrated != "" && calibrated == cpu && m.CoresPerNode() == cores {
		return nil
	}
	return &report.MachineMismatch{Machine: m.Name, CPU: calibrated, Cores: m.CoresPerNode(), Date: m.Provenance["date"],
		HostCPU: cpu, HostCores: cores}
}

// staleRatio is how far (either way) a ping-pong measured now may be from
// the machine file's before the file is called stale: beyond the spread
// of repeated calibrations on one quiet host (a few per cent) and of the
// fitted line against its own points (up to about 15 % at 8 bytes), well
// below the doubling seen overnight on a virtual machine's host.
const staleRatio = 1.5

// staleRounds is how many separate ping-pong runs the check takes the
// median of (about half a second each on the 2-core VM).
const staleRounds = 5

// staleSizes are the message sizes of the check: the latency and a
// bandwidth-bound size below the eager limits of the presets.
var staleSizes = []int{8, 65536}

// machineStale compares m's one-way time between two ranks of a node
// with measure's for staleSizes; it returns nil if every size is within
// staleRatio.
func machineStale(m *commmodel.Machine, measure func([]int) ([]float64, error)) (*report.MachineStale, error) {
	if m.CoresPerNode() < 2 {
		return nil, nil
	}
	pl, err := m.Place(2, 1, 2, commmodel.Block)
	if err != nil {
		return nil, err
	}
	got, err := measure(staleSizes)
	if err != nil {
		return nil, err
	}
	s := &report.MachineStale{Machine: m.Name, Date: m.Provenance["date"], Bytes: staleSizes, MeasuredS: got, Ratio: 1}
	for i, n := range staleSizes {
		file := m.Message(pl, 0, 1, n).Total()
		s.FileS = append(s.FileS, file)
		if !(file > 0) || !(got[i] > 0) {
			return nil, nil
		}
		if r := got[i] / file; math.Abs(math.Log(r)) > math.Abs(math.Log(s.Ratio)) {
			s.Ratio = r
		}
	}
	if s.Ratio < staleRatio && s.Ratio > 1/staleRatio {
		return nil, nil
	}
	return s, nil
}

// keepProfile writes prof back to the profile file of opts, which a
// profile made again replaced.
func keepProfile(prof *profiler.Profile, opts SpeedupOptions) error {
	prog, err := profiler.LoadFiles(opts.Dir, opts.Package)
	if err != nil {
		return err
	}
	path, _ := profilePath(opts, prog)
	return prof.Save(path)
}

// machineDrift compares the ranks' bodies of the fastest real run at the
// profile's rank count with those of the profile's runs of the program
// without probes (Totals.PlainBodyNs), when both ran the same arguments:
// how much faster or slower the machine is now than when it was profiled.
// nil when they cannot be compared (other arguments, no such rank count
// among the runs, a profile without plain runs).
func machineDrift(prof *profiler.Profile, args []string, bodies map[int][]float64) *report.MachineDrift {
	t := prof.Totals
	runs := bodies[prof.Meta.NP]
	if t.PlainBodyNs <= 0 || len(runs) == 0 || !slices.Equal(prof.Meta.Args, args) {
		return nil
	}
	profiled, measured := t.PlainBodyNs*1e-9, slices.Min(runs)
	return &report.MachineDrift{P: prof.Meta.NP, Profiled: profiled, Measured: measured, Ratio: measured / profiled}
}

// realRun runs the program once with p ranks and returns the compared
// time and, when the run was traced (an interval is compared), its ranks'
// body times summed (0 otherwise), as the profiler times its runs of the
// program without probes.
func realRun(ctx context.Context, bin, tmp string, p int, opts ValidateOptions) (float64, float64, error) {
	tracePath := filepath.Join(tmp, "trace.json")
	args := append([]string{"-mpitrace", tracePath, "-np", strconv.Itoa(p)}, opts.Args...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = opts.Dir
	// The interval marks and the ranks' bodies alone: recording every MPI
	// call would slow the run being measured.
	cmd.Env = append(os.Environ(), mpi.EnvTraceIntervals+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("prediction: running %s with %d ranks: %v\n%s", opts.Package, p, err, stderr.String())
	}
	wall := time.Since(start).Seconds()
	tr, err := mpi.ReadTrace(tracePath)
	if err != nil {
		return 0, 0, err
	}
	body, _ := tr.BodySum()
	if opts.Interval == 0 {
		// The whole run as the simulation has it: main's code before
		// mpi.Main included, without the process's start-up and exit,
		// which no region holds (for a short program they were most of
		// its wall time: pingpong's 9 ms against its 2-5 ms of exchanges).
		if end, ok := tr.LastFinish(); ok {
			return end, body, nil
		}
		return wall, body, nil
	}
	span, ok := traceInterval(tr, opts.Interval)
	if !ok {
		return 0, 0, fmt.Errorf("prediction: the run of %s never marks interval %d (BeginInterval/EndInterval); use --interval 0 to compare whole runs", opts.Package, opts.Interval)
	}
	return span, body, nil
}

// AutoInterval, as ValidateOptions.Interval, compares interval 1 where the
// program marks it and whole runs where it does not.
const AutoInterval = -1

// marksInterval reports whether mp's code may mark interval id: one of
// its MPI calls (as the model classifies them) is BeginInterval with id,
// or with an argument not known before the run.
func marksInterval(mp *model.Program, id int) bool {
	marks := false
	for _, f := range mp.Funcs {
		f.Walk(func(r *model.Region) {
			for _, l := range r.Leaves {
				if marks || l.MPI == nil || l.MPI.Op != "BeginInterval" {
					continue
				}
				var c *ssa.Const
				if arg := l.MPI.Arg("id"); arg != nil {
					c, _ = arg.Value.(*ssa.Const)
				}
				if c == nil || c.Value == nil || c.Value.Kind() != constant.Int {
					marks = true
				} else if v, exact := constant.Int64Val(c.Value); !exact || v == int64(id) {
					marks = true
				}
			}
		})
	}
	return marks
}

// contentionRanks are the rank counts of a profile's contention runs on a
// computer with cores cores: 1, 2, 4, ... and cores.
func contentionRanks(cores int) []int {
	var ks []int
	for k := 1; k < cores; k *= 2 {
		ks = append(ks, k)
	}
	return append(ks, max(cores, 1))
}

// traceInterval is the span of the first occurrence of interval id over
// all ranks, as interpreter.Run.Interval computes it for a simulation.
func traceInterval(tr *mpi.Trace, id int) (float64, bool) {
	r := &interpreter.Run{}
	for _, rk := range tr.Ranks {
		var marks []interpreter.Mark
		for _, e := range rk.Events {
			switch {
			case e.Op == "BeginInterval" && e.ID == id:
				marks = append(marks, interpreter.Mark{ID: id, Begin: true, T: e.T0})
			case e.Op == "EndInterval" && e.ID == id:
				marks = append(marks, interpreter.Mark{ID: id, T: e.T0})
			}
		}
		r.Marks = append(r.Marks, marks)
	}
	return r.Interval(id)
}
