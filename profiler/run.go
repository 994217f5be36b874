package profiler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/parpredict/parpredict/internal/host"
	"github.com/parpredict/parpredict/mpi"
	"github.com/parpredict/parpredict/profiler/probe"
)

// settleGain is how much faster than the fastest before a timed run or a
// run without probes must be for the runs to go on past Repeat: on a
// machine whose speed moves (a virtual machine's neighbours), the fastest
// of a few runs can still be a slow spell's, and the profile's times and
// its comparison with the program without probes inherit it (heat's
// profiles on a noisy host: the program without probes at 0.85 to 1.17
// times the own times, 2026-11-25).
const settleGain = 0.03

// settled reports whether the timed runs may stop after done of them
// (each with its run without probes, when there is one): once Repeat
// are done, at the first whose pair did not improve either fastest time
// by more than settleGain, and at twice Repeat at most. A single run
// asked for is a single run.
func settled(done, repeat int, improved bool) bool {
	return done >= repeat && (!improved || done >= 2*repeat || repeat < 2)
}

// gains reports whether a run of t ns is more than settleGain faster than
// the fastest so far, best (0: none yet, no gain).
func gains(t, best float64) bool { return best > 0 && t < (1-settleGain)*best }

// Options configure Run.
type Options struct {
	Dir     string   // directory Package is resolved in and the program runs in ("" = current)
	Package string   // main package: directory or import path
	Args    []string // program arguments
	NP      int      // ranks of the profiled run (0 = 1; with a Launcher without {np}: as many as it starts)
	PPN     []int    // rank counts for the node-contention reruns (empty = none)
	// Baseline runs the uninstrumented program too (Repeat times, keeping
	// the shortest), to measure the overhead and check that own times add
	// up to the real run time.
	Baseline bool
	// Plain times the program built without any probe (Repeat times,
	// keeping the fastest) from the goroutine backend's trace: the
	// ranks' bodies in the binary the user runs (Totals.PlainBodyNs).
	// Baseline does it too. Not under a Launcher.
	Plain bool
	// Repeat runs the timed run this many times (0 = 1), and up to as
	// many again while the last one still lowers the fastest time by more
	// than settleGain: the profile takes the run with the shortest wall
	// time, and the balance test counts only deviations that every run
	// shows.
	Repeat int
	// Budget is the share of the run time that timers may cost (0 = 0.05).
	Budget float64
	// Targets supplies the probe targets; nil means ModelTargets, falling
	// back to ASTTargets (with a progress note) if the model fails.
	Targets func(*Program) ([]Target, error)
	// Progress, when set, is told each stage as it starts.
	Progress func(stage string)
	// Launcher, when set, starts the program: its command line (with
	// NPPlaceholder replaced by each run's rank count) followed by the
	// binary and Args, instead of the binary with $PARPREDICT_NP, e.g.
	// mpirun --oversubscribe -np {np}. Every process writes its own
	// counters, merged as the goroutine backend's ranks share them.
	Launcher []string
	// Tags are build tags for the program (openmpi for the Open MPI
	// backend of mpi).
	Tags []string
	// Stdout and Stderr receive the program's output (nil = discarded).
	Stdout, Stderr io.Writer
	// Work, when set, is the directory (made if missing, kept afterwards)
	// for the instrumented sources, the overlay files and the binaries,
	// instead of a temporary one: for looking at what was built and run.
	Work string
}

// Run profiles a program: it instruments and builds a copy, runs it once
// counting to choose where timers go, once timed (with the mpi trace on
// for MPI times), optionally uninstrumented and once per PPN entry, and
// returns the profile.
func Run(ctx context.Context, opts Options) (*Profile, error) {
	if len(opts.Launcher) > 0 && !launcherHasNP(opts.Launcher) && len(opts.PPN) > 0 {
		return nil, fmt.Errorf("profiler: contention reruns need the launcher to take each run's rank count: write %s in it (mpirun -np %s)", NPPlaceholder, NPPlaceholder)
	}
	if len(opts.Launcher) > 0 && !slices.Contains(opts.Tags, "openmpi") && !slices.Contains(opts.Tags, "mpich") {
		// Built for the goroutine backend, every process would run all
		// ranks, and the merged counts would be the process count too big.
		return nil, errors.New("profiler: a launcher starts one process per rank: build the program for an MPI backend (tags openmpi or mpich)")
	}
	if opts.NP <= 0 && (len(opts.Launcher) == 0 || launcherHasNP(opts.Launcher)) {
		opts.NP = 1
	}
	if opts.Budget <= 0 {
		opts.Budget = 0.05
	}
	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	progress("loading " + opts.Package)
	prog, err := LoadProgram(opts.Dir, opts.Package)
	if err != nil {
		return nil, err
	}
	if err := prog.checkStartsRanks(); err != nil {
		return nil, err
	}
	source := "custom"
	var ts []Target
	if opts.Targets != nil {
		ts, err = opts.Targets(prog)
	} else {
		source = "model"
		progress("building the model")
		if ts, err = ModelTargets(prog); err != nil {
			progress(fmt.Sprintf("%v; placing probes from the syntax instead", err))
			source, ts, err = "syntax", ASTTargets(prog), nil
		}
	}
	if err != nil {
		return nil, err
	}
	in, err := Instrument(prog, ts, InstrOptions{})
	if err != nil {
		return nil, err
	}
	tmp, err := workDir(opts.Work)
	if err != nil {
		return nil, err
	}
	if opts.Work == "" {
		defer os.RemoveAll(tmp)
	}
	progress("building the instrumented program")
	bin, err := Build(ctx, prog, in, tmp, "instrumented", opts.Tags...)
	if err != nil {
		return nil, err
	}
	r := &runner{opts: opts, bin: bin, tmp: tmp, n: len(in.Regions) + 1, in: in, launchNs: map[*measured]float64{}}

	progress("counting run")
	count, err := r.run(ctx, "count", nil, opts.NP, false)
	if err != nil {
		return nil, err
	}
	// A launcher with a fixed process count tells the rank count.
	opts.NP, r.opts.NP = count.np, count.np
	// The contention runs' counts (the leaf iterations of each rank's
	// share) come before the plan: code that only runs with more ranks
	// (packing a face for a neighbour) is hot or not in them, and timed
	// by a plan that saw it never run, a call in its inner loop cost 4.6
	// million timers and made the loop's own time negative.
	ppnCounts := make([]*measured, len(opts.PPN))
	r.everyLoopByRank = true
	for i, k := range opts.PPN {
		progress(fmt.Sprintf("contention count run with %d ranks", k))
		if ppnCounts[i], err = r.run(ctx, fmt.Sprintf("ppn%d-count", k), nil, k, false); err != nil {
			return nil, err
		}
	}
	r.everyLoopByRank = false
	plan := planTimers(in, planCounts(count, opts.PPN, ppnCounts), *count.counts.Costs, count.wallNs, opts.Budget)
	progress("building the timing program")
	tb, err := buildTiming(ctx, prog, in, ts, plan, tmp, opts.Tags, false)
	if err != nil {
		return nil, err
	}

	// The program without probes runs in turn with the timed runs, so
	// that a slow spell of the machine falls on runs of both.
	var plain *plainBinary
	var plainNs float64 // the fastest run's body time; 0: none
	if (opts.Baseline || opts.Plain) && len(opts.Launcher) == 0 {
		progress("building the program without probes")
		if plain, err = buildPlain(ctx, prog, tmp, opts.Tags); err != nil {
			return nil, err
		}
	}
	var timed *measured
	var runs []*measured
	vecRuns := map[int][][]int64{}
	repeat := max(opts.Repeat, 1)
	for i := 0; ; i++ {
		if i < repeat {
			progress(fmt.Sprintf("timed run %d", i+1))
		} else {
			progress(fmt.Sprintf("timed run %d of at most %d: the last ones still ran more than %.0f%% faster", i+1, 2*repeat, 100*settleGain))
		}
		m, err := r.runTimed(ctx, "timed", tb, count, opts.NP)
		if err != nil {
			return nil, err
		}
		improved := timed != nil && gains(m.wallNs, timed.wallNs)
		if plain != nil {
			progress(fmt.Sprintf("run %d without probes", i+1))
			ns, err := r.runPlain(ctx, plain)
			if err != nil {
				return nil, err
			}
			switch {
			case ns == 0:
				plain = nil // its trace has no body times (no mpi.Main): no more runs
			case plainNs == 0 || ns < plainNs:
				improved = improved || gains(ns, plainNs)
				plainNs = ns
			}
		}
		for k := range plan.vec {
			if v := entryMeans(regionCounts(m, k)); len(v) > 0 {
				vecRuns[k] = append(vecRuns[k], v)
			}
		}
		if timed == nil || m.wallNs < timed.wallNs {
			timed = m
		}
		runs = append(runs, m)
		if settled(i+1, repeat, improved) {
			break
		}
	}
	if len(plan.apart) > 0 {
		if err := r.vectorRuns(ctx, prog, in, ts, plan, count, runs, vecRuns, progress); err != nil {
			return nil, err
		}
	}
	timed.vecRuns = vecRuns
	p, err := newProfile(prog, in, plan, timed, runs, opts)
	if err != nil {
		return nil, err
	}
	p.Meta.Targets = source
	if opts.Baseline {
		progress("building and running the uninstrumented program")
		base, err := buildBaseline(ctx, prog, in, ts, tmp, opts.Tags)
		if err != nil {
			return nil, err
		}
		wall, mainNs := math.Inf(1), math.Inf(1)
		for range max(opts.Repeat, 1) {
			w, m, err := r.runBaseline(ctx, base, opts.NP)
			if err != nil {
				return nil, err
			}
			wall, mainNs = min(wall, w), min(mainNs, m)
		}
		// Under a launcher the wall times are the processes' own (see
		// run): take the launcher's start-up, as the timed run showed it,
		// out of the baseline's too.
		wall -= r.launchNs[timed]
		p.Totals.BaselineNs, p.Totals.BaselineMainNs = wall, mainNs
		p.Totals.Overhead = p.Totals.WallNs / wall
	}
	p.Totals.PlainBodyNs = plainNs
	if len(opts.PPN) > 0 {
		c := &Contention{PPN: append([]int(nil), opts.PPN...), Regions: map[string][]float64{}}
		// The counts at each k (ppnCounts) were made before the plan; now
		// the timed runs, the rank counts taking turns, so
		// that a slow spell of the machine falls on runs of every count
		// rather than on all the runs of one (whose ratios it would
		// inflate: heat's halo loop read 35x at two ranks in one profile,
		// 16x in the next).
		// The fastest of a few runs per count, as for the timed runs:
		// another process, or a virtual machine's second core taken away
		// for a while, only ever adds time, and a slowdown ratio from one
		// disturbed run moved a prediction by 30 % (transpose's two ranks
		// read 1.45 in one profile, 1.09 in the next).
		// Rounds go on past contentionRuns, as the timed runs do, while
		// one still lowers a count's fastest time by more than settleGain.
		fastest := make([]*measured, len(opts.PPN))
		var rounds [][]*measured // by round, by count
		start := time.Now()
		for rep := 0; ; rep++ {
			improved := false
			rounds = append(rounds, make([]*measured, len(opts.PPN)))
			for i, k := range opts.PPN {
				progress(fmt.Sprintf("contention runs with %d ranks (round %d, at least %d)", k, rep+1, contentionRuns))
				mk, err := r.runTimed(ctx, fmt.Sprintf("ppn%d", k), tb, ppnCounts[i], k)
				if err != nil {
					return nil, err
				}
				rounds[rep][i] = mk
				improved = improved || fastest[i] != nil && gains(mk.wallNs, fastest[i].wallNs)
				if fastest[i] == nil || mk.wallNs < fastest[i].wallNs {
					fastest[i] = mk
				}
			}
			if settled(rep+1, contentionRuns, improved) && (time.Since(start) >= contentionSpan || rep+1 >= maxContentionRounds) {
				break
			}
		}
		// Every run's numbers, by round and count; each count's fastest
		// run among them.
		root := moduleRoot(prog)
		paired := make([][]*aggregator, len(rounds))
		runs := make([]*aggregator, len(opts.PPN))
		for j, round := range rounds {
			for i, m := range round {
				a := &aggregator{in: in, plan: plan, m: *m, costs: *timed.counts.Costs, root: root}
				a.run()
				paired[j] = append(paired[j], a)
				if m == fastest[i] {
					runs[i] = a
				}
			}
		}
		for _, a := range runs {
			c.add(runs[0], a)
		}
		c.pair(runs[0], paired)
		p.Contention = c
		p.fillUnreached(opts.PPN, runs)
	}
	return p, nil
}

// contentionRuns is how many timed runs each rank count of the
// node-contention reruns makes at least (twice as many at most, see
// settled); the fastest counts.
const contentionRuns = 3

// contentionSpan is how long the rounds of contention runs go on at
// least, up to maxContentionRounds: a program of a few tens of
// milliseconds made its rounds within one slow spell of the virtual
// machine's second core, and the ratio stayed in the profile (cg's two
// ranks read 1.68 once, 1.07-1.19 in five profiles made after it).
const (
	contentionSpan      = time.Second
	maxContentionRounds = 30
)

// vectorRuns gives the apart loops of plan (tight loops, see timerPlan)
// their per-iteration times: the vector binary runs as often as the timing
// binary did, and each run's vector of such a loop is scaled so that its
// iterations add up to the loop's time per entry in the fastest timed run.
// The ticks change the loop's code, so only the vector's shape is theirs.
func (r *runner) vectorRuns(ctx context.Context, prog *Program, in *Instrumented, ts []Target, plan timerPlan, count *measured, timedRuns []*measured, vecRuns map[int][][]int64, progress func(string)) error {
	progress("building the vector program")
	vb, err := buildTiming(ctx, prog, in, ts, plan, r.tmp, r.opts.Tags, true)
	if err != nil {
		return err
	}
	clean := map[int]float64{} // apart loop -> fastest time per entry in the timed runs
	for _, m := range timedRuns {
		for k := range plan.apart {
			if rc := regionCounts(m, k); rc.Execs > 0 && rc.Ns > 0 {
				t := float64(rc.Ns) / float64(rc.Execs)
				if c, ok := clean[k]; !ok || t < c {
					clean[k] = t
				}
			}
		}
	}
	tick := timedRuns[0].counts.Costs.Tick
	for i := range len(timedRuns) {
		progress(fmt.Sprintf("vector run %d", i+1))
		m, err := r.runTimed(ctx, "vectors", vb, count, r.opts.NP)
		if err != nil {
			return err
		}
		for k := range plan.apart {
			rc := regionCounts(m, k)
			means := entryMeans(rc)
			if len(means) == 0 || rc.Execs == 0 || clean[k] <= 0 {
				continue
			}
			perEntry := (float64(rc.Ns) - float64(rc.Iters)*tick) / float64(rc.Execs)
			if perEntry <= 0 {
				continue
			}
			vecRuns[k] = append(vecRuns[k], scaleVec(means, clean[k]/perEntry, tick))
		}
	}
	return nil
}

func regionCounts(m *measured, k int) probe.RegionCounts {
	if k < len(m.counts.Regions) {
		return m.counts.Regions[k]
	}
	return probe.RegionCounts{}
}

// scaleVec scales iteration times by s, leaving each one's tick (which the
// balance test subtracts) as it is.
func scaleVec(v []int64, s, tick float64) []int64 {
	out := make([]int64, len(v))
	for i, t := range v {
		out[i] = int64(math.Round(max(float64(t)-tick, 0)*s + tick))
	}
	return out
}

// runner runs the instrumented binary.
type runner struct {
	opts Options
	bin  string
	tmp  string
	n    int
	in   *Instrumented
	// launchNs is, per launcher run, the launcher's own share of its wall
	// clock.
	launchNs map[*measured]float64
	// everyLoopByRank makes counting runs keep every loop's trips per
	// rank, not only those whose count the instrumenter could not compute
	// at entry: in the contention runs a loop over a slice a rank filled
	// from its data (particles gathered in the middle slabs) has a known
	// count at entry and still differs from rank to rank, which the
	// prediction needs where the interpreter cannot know the slice.
	everyLoopByRank bool
}

// run runs the instrumented program with the given timers and returns its
// counters, trace and wall time.
func (r *runner) run(ctx context.Context, name string, plan *timerPlan, np int, trace bool) (*measured, error) {
	out := filepath.Join(r.tmp, name+".counts.json")
	if len(r.opts.Launcher) > 0 {
		out = filepath.Join(r.tmp, name+".counts."+probe.RankPlaceholder+".json")
	}
	env := []string{
		probe.EnvOut + "=" + out,
		probe.EnvN + "=" + strconv.Itoa(r.n),
	}
	if plan == nil {
		// Calibrate in the counting run only: it takes a while, and the
		// timed run's wall time is the overhead measurement. The counting
		// run also keeps the trip counts of data-dependent loops per rank,
		// when there are several.
		env = append(env, probe.EnvCalibrate+"=1")
		if np > 1 || len(r.opts.Launcher) > 0 {
			loops := countedLoops(r.in)
			if r.everyLoopByRank {
				loops = everyLoop(r.in)
			}
			env = append(env, probe.EnvRankTrips+"="+indexList(loops))
		}
	} else {
		env = append(env, probe.EnvTimed+"="+indexList(plan.timed), probe.EnvVec+"="+vecList(plan))
	}
	tracePath := filepath.Join(r.tmp, name+".trace.json")
	if trace {
		// Sampled: the profile needs MPI time per call site, and a
		// program making millions of MPI calls would otherwise spend most
		// of its run recording them.
		env = append(env, mpi.EnvTrace+"="+tracePath, mpi.EnvTraceSample+"=1")
	}
	wall, err := r.exec(ctx, r.bin, np, env)
	if err != nil {
		return nil, err
	}
	var c *probe.Counts
	launchNs := 0.0
	if len(r.opts.Launcher) > 0 {
		want := np
		if !launcherHasNP(r.opts.Launcher) {
			want = r.opts.NP // 0 until the counting run has told it
		}
		per, err := readRankCounts(out, want)
		if err != nil {
			return nil, err
		}
		np = len(per)
		c = mergeRankCounts(r.in, per)
		// The slowest process's own wall time, less MPI's start-up and
		// shut-down (mergeRankCounts): the launcher's start-up is not the
		// program's.
		launchNs = wall - float64(c.WallNs)
		wall = float64(c.WallNs)
	} else {
		data, err := os.ReadFile(out)
		if err != nil {
			return nil, fmt.Errorf("profiler: the instrumented program wrote no counters (did it exit through a path that skips main's return, such as log.Fatal or a panic?): %w", err)
		}
		c = &probe.Counts{}
		if err := json.Unmarshal(data, c); err != nil {
			return nil, fmt.Errorf("profiler: reading counters: %w", err)
		}
	}
	if plan == nil && c.Costs == nil {
		return nil, errors.New("profiler: the instrumented program did not calibrate its probes")
	}
	// Writing the mpi trace (for MPI times) happens after the program's
	// work and is the profiler's cost, not the program's.
	m := &measured{counts: c, np: np, wallNs: wall - float64(c.TraceNs) - float64(c.RankNs)}
	r.launchNs[m] = launchNs
	if trace {
		if m.trace, err = mpi.ReadTrace(tracePath); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: with the arguments %q it returned before mpi.Main or mpi.Run (it wrote no MPI trace); run it with them (go run PKG ARGS) to see why, and profile it with arguments that reach its ranks", ErrNoRanks, r.opts.Args)
		} else if err != nil {
			return nil, fmt.Errorf("profiler: %w", err)
		}
	}
	return m, nil
}

// exec runs a binary with the program's arguments and np ranks and returns
// its wall time in nanoseconds.
func (r *runner) exec(ctx context.Context, bin string, np int, env []string) (float64, error) {
	argv := append([]string{bin}, r.opts.Args...)
	if len(r.opts.Launcher) > 0 {
		argv = append(launcherArgv(r.opts.Launcher, np), argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = r.opts.Dir
	cmd.Env = append(append(os.Environ(), mpi.EnvNP+"="+strconv.Itoa(np)), env...)
	cmd.Stdout, cmd.Stderr = r.opts.Stdout, r.opts.Stderr
	var stderr strings.Builder
	if cmd.Stderr == nil {
		cmd.Stderr = &stderr
	} else {
		cmd.Stderr = io.MultiWriter(cmd.Stderr, &stderr)
	}
	t0 := time.Now()
	err := cmd.Run()
	wall := float64(time.Since(t0))
	if err != nil {
		shown := launcherArgv(r.opts.Launcher, np)
		shown = append(append(shown, r.opts.Package), r.opts.Args...)
		ranks := ""
		if len(r.opts.Launcher) == 0 {
			ranks = fmt.Sprintf(" with %d ranks", np) // a launcher's command line says it
		}
		return 0, fmt.Errorf("profiler: running %s%s: %w\n%s", strings.Join(shown, " "), ranks, err, tail(stderr.String(), 2000))
	}
	return wall, nil
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// vecList is the value of probe.EnvVec: the vec loops, each with the most
// iterations of one of its entries when known (k:n).
func vecList(plan *timerPlan) string {
	ks := sortedIndices(plan.vec)
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = strconv.Itoa(k)
		if n := plan.vecLen[k]; n > 0 {
			parts[i] += ":" + strconv.FormatInt(n, 10)
		}
	}
	return strings.Join(parts, ",")
}

func indexList(set map[int]bool) string {
	ks := sortedIndices(set)
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = strconv.Itoa(k)
	}
	return strings.Join(parts, ",")
}

// sortedIndices are set's members in increasing order.
func sortedIndices(set map[int]bool) []int {
	ks := make([]int, 0, len(set))
	for k := range set {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// newProfile aggregates the fastest timed run m into a profile with its
// metadata, each timed region's times taken from the run of runs that
// timed it fastest (fastestRuns).
func newProfile(prog *Program, in *Instrumented, plan timerPlan, m *measured, runs []*measured, opts Options) (*Profile, error) {
	files, hash, err := hashSources(prog)
	if err != nil {
		return nil, err
	}
	a := &aggregator{in: in, plan: plan, m: *m, costs: *m.counts.Costs, root: moduleRoot(prog)}
	a.run()
	a.fastestRuns(runs)
	c := m.counts.Costs
	p := &Profile{
		Format: Format, Version: Version,
		Meta: Meta{
			Package: prog.Main.PkgPath, Args: append([]string{}, opts.Args...), NP: m.np,
			GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH,
			CPU: host.CPUModel(), Cores: runtime.NumCPU(), GOMAXPROCS: childMaxProcs(),
			Date:       time.Now().UTC().Format(time.RFC3339),
			SourceHash: hash, Sources: files, Probes: Probes,
			ProbeCost: ProbeCost{TimerNs: c.Timer, BodyNs: c.Body, LoopNs: c.Loop, UntimedNs: c.Untimed, TickNs: c.Tick, VecEntryNs: c.VecEntry, VecElemNs: c.VecElem, ResolutionNs: c.ClockRes},
		},
		Regions: a.regions(),
		MPI:     a.sites,
		Totals:  a.totals(),
	}
	if p.MPI == nil {
		p.MPI = []MPISite{}
	}
	p.reindex()
	return p, nil
}

// childMaxProcs is the GOMAXPROCS the profiled program runs with.
func childMaxProcs() int {
	if n, err := strconv.Atoi(os.Getenv("GOMAXPROCS")); err == nil && n > 0 {
		return n
	}
	return runtime.NumCPU()
}

// workDir returns dir, made if missing, or a new temporary directory when
// dir is empty.
func workDir(dir string) (string, error) {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "parpredict-profile-")
		if err != nil {
			return "", fmt.Errorf("profiler: %w", err)
		}
		return tmp, nil
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		err = os.MkdirAll(abs, 0o755)
	}
	if err != nil {
		return "", fmt.Errorf("profiler: work directory: %w", err)
	}
	return abs, nil
}
