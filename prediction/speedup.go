package prediction

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/commmodel/simnet"
	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/loopnest"
	"github.com/parpredict/parpredict/model"
	"github.com/parpredict/parpredict/profiler"
	"github.com/parpredict/parpredict/report"
)

// SpeedupOptions say what to predict.
type SpeedupOptions struct {
	Dir     string   // directory the package is resolved in ("" = current)
	Package string   // the program's main package
	Args    []string // the program arguments to predict for
	NP      []int    // rank counts
	PPN     []int    // ranks per node; empty: as many as a node has cores
	Order   commmodel.Order
	Machine string // preset name or machine file

	// Profile is the profile file to use; it must match the sources and
	// ProfileArgs, and is made here if it does not exist. If empty,
	// ProfileOut is reused when it matches, else the program is profiled
	// here and ProfileOut written.
	Profile     string
	ProfileArgs []string // arguments of the profiling run; nil: Args
	// ProfileOut is where a profile made here is kept ("" =
	// NAME.profile.json in the current directory).
	ProfileOut string
	// ProfilePPN are the contention runs of a profile made here (predict
	// profile --ppn): with them each region's compute slows down with the
	// ranks sharing a node as it did here, else as the machine's table
	// says.
	ProfilePPN []int

	Threshold float64 // efficiency threshold of the scalability range (0: 0.5)
	// MaxSteps is how many SSA instructions a rank may execute before its
	// simulation gives up as on an endless loop (0: the interpreter's
	// default, 2e9).
	MaxSteps int64
	// Oversubscribe allows more ranks per node than cores: ranks then
	// share cores and compute slows down in proportion.
	Oversubscribe bool
	// TimelineP asks for the per-rank totals and timeline of the
	// configuration with this many ranks (the first ppn that fits; 0: none).
	TimelineP int
	Progress  func(done, total int, what string)
	// Jobs is how many configurations are simulated at once (0: one per
	// processor Go may use). The prediction is the same for any value.
	Jobs int
	Log  func(format string, args ...any) // notes for the user (nil: none)

	// remake profiles the program again even where the profile file
	// exists and matches (validate, when the machine's speed moved).
	remake bool
}

// Prediction is a sweep's result: the report and what the model assumed.
type Prediction struct {
	Report      *report.SpeedupReport
	Sweep       report.Sweep
	Assumptions []interpreter.Assumption
	Notes       []string
	Skipped     []string // configurations the machine cannot hold
	// Failed are the configurations whose simulation stopped: the
	// program panics or deadlocks there, or an operation of it fails
	// (Report.Failed says the same in words). A sweep fails as a whole
	// only when every configuration does.
	Failed []ConfigFailure
	// Timeline is the per-rank timeline of the TimelineP configuration
	// (nil when not asked for or not predicted); Report.PerRank has its
	// totals.
	Timeline *report.Timeline
}

// ConfigFailure is a configuration of a sweep without a predicted time,
// and why.
type ConfigFailure struct {
	Config report.Config
	Err    error // a *interpreter.RankError, *interpreter.DeadlockError, ...
}

// Speedup predicts the program's run time for every configuration.
func Speedup(ctx context.Context, opts SpeedupOptions) (*Prediction, error) {
	logf := opts.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	m, err := commmodel.Load(opts.Machine)
	if err != nil {
		return nil, err
	}
	ppns := opts.PPN
	if len(ppns) == 0 {
		ppns = []int{m.CoresPerNode()}
	}
	configs, skipped := sweepConfigs(m, ppns, opts)
	if len(configs) == 0 {
		// Before the profile run, which may take minutes.
		return nil, fmt.Errorf("prediction: no configuration fits the machine: %s; predict fewer ranks (--np), more per node (--ppn, --oversubscribe beyond the cores), or on a machine file with more nodes (--machine)", strings.Join(skipped, "; "))
	}
	mp, oracle, err := prepare(ctx, opts, logf)
	if err != nil {
		return nil, err
	}
	pred := &Prediction{Sweep: report.Sweep{Program: opts.Package, Machine: m.Name, Args: opts.Args}, Skipped: skipped}
	type outcome struct {
		point       report.Point
		timeline    *report.Timeline
		perRank     *report.RankTotals
		note        string
		netNotes    []string // the network's: collectives costed another way
		assumptions []interpreter.Assumption
		selfCheck   string                // P = 1: the self-check's note, if any
		distSerial  *float64              // P = 1: the serial time outside distributed nests
		steps       int64                 // SSA instructions the ranks executed
		hot         []interpreter.HotSpot // where they went, from slowSteps on
		err         error                 // the simulation's failure
	}
	outcomes := make([]outcome, len(configs))
	oracle.nodeContention(m)  // made once, before simulations read it at once
	var progressMu sync.Mutex // configurations simulate at once (Jobs)
	finished := 0
	tell := func(what string) {
		progressMu.Lock()
		defer progressMu.Unlock()
		opts.Progress(finished, len(configs), what)
	}
	err = forEachConfig(ctx, len(configs), opts.Jobs, func(i int) int { return configs[i].p }, func(i int) error {
		c, out := configs[i], &outcomes[i]
		out.point = report.Point{Config: report.Config{P: c.p, Nodes: c.nodes, PPN: c.per}}
		base := interpreter.Options{Timeline: c.keep}
		if opts.Progress != nil {
			// A configuration of thousands of ranks can take minutes:
			// say how far it got, not only how many are done.
			label := fmt.Sprintf("P=%d ppn=%d", c.p, c.per)
			tell(label)
			base.Progress = func(ops int64, now float64) { tell(label + ": " + simulatedSoFar(ops, now)) }
		}
		run, sp, err := simulate(mp, oracle, m, c.p, c.nodes, c.per, opts.Order, opts.Args, base)
		if err != nil {
			// The program's failure in this configuration (a panic at one
			// rank count, a deadlock at another) is part of the answer;
			// the other configurations go on.
			out.err = err
			return ctx.Err()
		}
		out.point.Time, out.netNotes = run.Makespan, run.Notes
		if c.keep {
			out.timeline, out.perRank = predictedTimeline(run, pred.Sweep), rankTotals(run, out.point.Config)
		}
		if c.p == 1 {
			out.selfCheck = oracle.selfCheck(maxCompute(run))
			// An auxiliary estimate: if its extra run fails, the report
			// fits f to the points instead.
			if serial, err := serialTime(mp, oracle, m, run, opts); err == nil {
				out.point.Serial = &serial
			} else {
				out.note = fmt.Sprintf("serial time not estimated: %v", err)
			}
			dist := max(run.Makespan-sp.Distributed(0), 0)
			out.distSerial = &dist
		}
		out.assumptions = sp.Assumptions()
		if out.steps = sp.Steps(); out.steps >= slowSteps {
			out.hot = sp.HotSpots(hotShare)
		}
		return nil
	}, func(i int) {
		progressMu.Lock()
		finished++
		progressMu.Unlock()
		if opts.Progress != nil {
			tell(fmt.Sprintf("P=%d ppn=%d", configs[i].p, configs[i].per))
		}
	})
	if err != nil {
		return nil, err
	}
	var assumptions assumptionSet
	severalPPN := len(ppns) > 1
	var perRank *report.RankTotals
	slowest := -1 // the configuration whose simulation ran the most instructions
	var failures []report.Failure
	for i, out := range outcomes {
		if out.err != nil {
			pred.Failed = append(pred.Failed, ConfigFailure{Config: out.point.Config, Err: out.err})
			c := out.point.Config
			failures = append(failures, report.Failure{Config: c, Error: failureMessage(c, out.err)})
			continue
		}
		if slowest < 0 || out.steps > outcomes[slowest].steps {
			slowest = i
		}
		pred.Sweep.Points = append(pred.Sweep.Points, out.point)
		if out.timeline != nil {
			pred.Timeline, perRank = out.timeline, out.perRank
		}
		if out.note != "" {
			pred.Notes = append(pred.Notes, out.note)
		}
		for _, n := range out.netNotes {
			if !slices.Contains(pred.Notes, n) {
				pred.Notes = append(pred.Notes, n)
			}
		}
		assumptions.add(configLabel(configs[i].p, configs[i].per, severalPPN), out.assumptions)
	}
	if len(pred.Failed) > 0 && len(pred.Sweep.Points) == 0 {
		return nil, pred.Failed[0].Err
	}
	for _, out := range outcomes {
		if out.distSerial != nil && out.err == nil {
			if note := chooseSerial(pred.Sweep.Points, *out.distSerial); note != "" {
				pred.Notes = append(pred.Notes, note)
			}
		}
	}
	pred.Report, err = report.Speedup(pred.Sweep, report.SpeedupOptions{Threshold: opts.Threshold})
	if err != nil {
		return nil, err
	}
	pred.Report.Failed = failures
	pred.Report.PerRank = perRank
	if opts.TimelineP > 0 && perRank == nil {
		pred.Notes = append(pred.Notes, fmt.Sprintf("no timeline: P = %d was not predicted (give it in --np)", opts.TimelineP))
	}
	pred.Assumptions = assumptions.sorted()
	if slowest >= 0 {
		if note := oracle.hotSpotsNote(configs[slowest].p, outcomes[slowest].steps, outcomes[slowest].hot); note != "" {
			pred.Notes = append(pred.Notes, note)
		}
	}
	for _, out := range outcomes {
		if out.selfCheck != "" {
			pred.Notes = append(pred.Notes, out.selfCheck)
		}
	}
	pred.Notes = append(pred.Notes, oracle.nodeContention(m).source())
	pred.Notes = append(pred.Notes, oracle.Notes()...)
	pred.Report.Caveats = caveats(pred.Assumptions, pred.Notes)
	return pred, nil
}

// configPrefix starts a simulation's error with its configuration; the
// report's failed lines, under the configuration already, leave it out.
func configPrefix(p, nodes, ppn int) string {
	return fmt.Sprintf("prediction: P=%d, %d x %d: ", p, nodes, ppn)
}

// failureMessage is a failed simulation's error for a report line that
// names its configuration already.
func failureMessage(c report.Config, err error) string {
	return strings.TrimPrefix(err.Error(), configPrefix(c.P, c.Nodes, c.PPN))
}

// sweepConfig is a configuration of a sweep that the machine holds.
type sweepConfig struct {
	p, nodes, per int
	keep          bool // its timeline is kept (SpeedupOptions.TimelineP)
}

// sweepConfigs lists the sweep's configurations in the order of the
// report, and says why the machine cannot hold the others.
func sweepConfigs(m *commmodel.Machine, ppns []int, opts SpeedupOptions) (configs []sweepConfig, skipped []string) {
	kept := false
	listed := map[[3]int]bool{} // p, nodes, per
	for _, ppn := range ppns {
		for _, p := range opts.NP {
			per := min(ppn, p)
			nodes := (p + per - 1) / per
			if listed[[3]int{p, nodes, per}] {
				continue // P = 1 at any ppn, or P = 2 at ppn 2 and 4: one placement
			}
			listed[[3]int{p, nodes, per}] = true
			if nodes > m.Nodes || per > m.CoresPerNode() && !opts.Oversubscribe {
				skipped = append(skipped, fmt.Sprintf("P=%d at %d per node needs %d nodes of %d cores; %s has %d of %d",
					p, per, nodes, per, m.Name, m.Nodes, m.CoresPerNode()))
				continue
			}
			keep := p == opts.TimelineP && !kept
			kept = kept || keep
			configs = append(configs, sweepConfig{p, nodes, per, keep})
		}
	}
	return configs, skipped
}

// simulatedSoFar says how far a simulation got: the MPI operations
// simulated and the virtual time reached.
func simulatedSoFar(ops int64, now float64) string {
	return fmt.Sprintf("%.3g million MPI operations, %.3g s simulated", float64(ops)/1e6, now)
}

// serialTime estimates the part of the P = 1 run that does not get faster
// with more ranks. With C(P) the largest per-rank compute time,
// C(P) = s + c/P for serial compute s and divisible compute c, so two
// model runs give s = 2 C(2) - C(1); communication does not shrink with P
// either and counts as serial.
func serialTime(mp *model.Program, oracle *Oracle, m *commmodel.Machine, one *interpreter.Run, opts SpeedupOptions) (float64, error) {
	per := min(2, m.CoresPerNode())
	nodes := 2 / per
	two, _, err := simulate(mp, oracle, m, 2, nodes, per, opts.Order, opts.Args, interpreter.Options{})
	if err != nil {
		return 0, err
	}
	c1, c2 := maxCompute(one), maxCompute(two)
	// Compute slows down when ranks share a node; compare like with like.
	nc := oracle.nodeContention(m)
	c2 /= nc.total(per) / nc.total(1)
	s := min(max(2*c2-c1, 0), c1)
	return min(one.Makespan-c1+s, one.Makespan), nil
}

// amdahlSlack is how far above Amdahl's bound for a serial fraction the
// predicted speedups may go before that fraction is taken as wrong: the
// bound holds for the model's own curve up to its noise and rounding.
const amdahlSlack = 1.05

// chooseSerial picks the P = 1 point's serial time (points as predicted)
// from two estimates: the busiest rank's compute at P = 1 and 2
// (serialTime, already in the point) and the one-rank run's time outside
// the nests whose iterations the ranks divide (dist). The first reads a
// master that hands out work and one worker as nothing divided (f = 0.99
// for a farm the same sweep predicts at a speedup of 16.6 at P = 32) and
// a master's serial check beside a worker as nothing serial (f = 0); the
// second misses work divided by data the ranks receive. Of the two, the
// larger serial time that the predicted speedups do not contradict
// (none above Amdahl's bound for it, by more than amdahlSlack) is kept;
// when they contradict both (a farm whose master deals tasks by message
// runs them all itself at P = 1, outside any divided nest), the point
// keeps none and the report fits f to the speedups. The note says when
// the first was not kept.
func chooseSerial(points []report.Point, dist float64) string {
	one := -1
	for i, pt := range points {
		if pt.P == 1 {
			one = i
		}
	}
	if one < 0 || points[one].Time <= 0 {
		return ""
	}
	if points[one].Serial == nil {
		return ""
	}
	t1 := points[one].Time
	dist = min(dist, t1)
	consistent := func(s float64) bool {
		f := s / t1
		for _, pt := range points {
			if pt.P > 1 && pt.Time > 0 && t1/pt.Time > amdahlSlack/(f+(1-f)/float64(pt.P)) {
				return false
			}
		}
		return true
	}
	twoPoint := *points[one].Serial
	choice := twoPoint
	okTwo, okDist := consistent(twoPoint), consistent(dist)
	switch {
	case okTwo && okDist:
		choice = max(twoPoint, dist)
	case okDist:
		choice = dist
	default:
		points[one].Serial = nil
		return fmt.Sprintf("serial fraction fitted to the predicted speedups: they exceed Amdahl's bound for both of the model's estimates of the serial time, the busiest rank's compute at P = 1 and 2 (%.4g s of %.4g s) and the one-rank run's time outside the nests whose iterations the ranks divide (%.4g s): work divided in a way neither sees (tasks dealt out by messages, loops the simulation runs step by step)", twoPoint, t1, dist)
	}
	if choice == twoPoint {
		return ""
	}
	points[one].Serial = &choice
	if math.Abs(choice-twoPoint) < 0.01*t1 {
		return "" // a point of f or less: not worth a line
	}
	why := "which leaves out what one rank computes while the others wait (a master's serial check beside a worker at P = 2)"
	if !okTwo {
		why = "for which the predicted speedups exceed Amdahl's bound (a master handing out work to one worker at P = 2 divides nothing)"
	}
	return fmt.Sprintf("serial fraction from the one-rank run's time outside the nests whose iterations the ranks divide (%.4g s of %.4g s), not from the busiest rank's compute at P = 1 and 2 (%.4g s), %s", choice, t1, twoPoint, why)
}

func maxCompute(r *interpreter.Run) float64 {
	c := 0.0
	for _, st := range r.Ranks {
		c = max(c, st.Compute)
	}
	return c
}

// prepare loads the program's model and reduction plan, obtains its
// profile, and builds the oracle from them.
func prepare(ctx context.Context, opts SpeedupOptions, logf func(string, ...any)) (*model.Program, *Oracle, error) {
	mp, lp, err := loadPlan(opts.Dir, opts.Package)
	if err != nil {
		return nil, nil, err
	}
	warnUnsupported(mp, logf)
	oracle, err := profiledOracle(ctx, mp, lp, opts, logf)
	return mp, oracle, err
}

// loadPlan loads the program's model and its loop-nest plan.
func loadPlan(dir, pkg string) (*model.Program, *loopnest.Program, error) {
	mp, err := loadModel(dir, pkg)
	if err != nil {
		return nil, nil, err
	}
	lp, err := loopnest.FromModel(mp, nil)
	if err != nil {
		return nil, nil, err
	}
	return mp, lp, nil
}

// warnUnsupported tells, before the profile run, of the goroutines and
// channels the simulation would stop at: a prediction fails only when a
// rank reaches one, minutes later. The first few are named.
func warnUnsupported(mp *model.Program, logf func(string, ...any)) {
	const named = 5
	uses := interpreter.FindUnsupported(mp.Packages[0], mp.Packages)
	if len(uses) == 0 {
		return
	}
	logf("the code main may run uses goroutines or channels, and a prediction stops where a rank runs one: %s", interpreter.UnsupportedAdvice)
	for i, u := range uses {
		if i == named {
			logf("  and %d more", len(uses)-named)
			break
		}
		logf("  %s: %s in %s", u.Pos, u.What, model.FuncName(u.Fn))
	}
}

// profiledOracle obtains the program's profile and builds the oracle of
// model mp and plan lp from it.
func profiledOracle(ctx context.Context, mp *model.Program, lp *loopnest.Program, opts SpeedupOptions, logf func(string, ...any)) (*Oracle, error) {
	prof, err := obtainProfile(ctx, opts, logf)
	if err != nil {
		return nil, err
	}
	oracle, err := NewOracle(mp, lp, prof)
	if err != nil {
		return nil, err
	}
	oracle.SetArgs(opts.Args)
	oracle.maxSteps, oracle.logf = opts.MaxSteps, logf
	return oracle, nil
}

// simulate predicts one configuration: p ranks on nodes nodes, per per node.
//
// The ranks of a node share its cores, and with them its caches and memory
// bus: with k ranks computing at once, each region slows down by its node
// contention (nodeContention). A rank blocked in MPI holds no core (a
// parked goroutine; an MPI process that yields when oversubscribed), so on
// an oversubscribed node only the ranks that compute share them: busy =
// the node's compute time / its largest rank's, so that the idle ranks of
// a ping-pong count for nothing. And ranks that synchronise often may not
// get all the cores they could (the machine's lockstep table: with the
// goroutine backend on a virtual machine, ranks exchanging every few
// hundred microseconds take turns on one core), given their mean compute
// time between MPI operations. Both come from a first simulation that
// gives every rank its core (or its share of the node's cores), counted
// between each rank's first and last MPI operation; if they call for a
// stretch, the configuration is simulated again with each rank's compute
// stretched between those operations (interpreter.Lockstep): what it
// computes before (setting up) and after (rank 0 checking the result
// alone) keeps full speed.
func simulate(mp *model.Program, oracle *Oracle, m *commmodel.Machine, p, nodes, per int, order commmodel.Order, args []string, base interpreter.Options) (*interpreter.Run, *interpreter.SSAPrograms, error) {
	pl, k, share, err := place(m, p, nodes, per, order)
	if err != nil {
		return nil, nil, err
	}
	nc := oracle.nodeContention(m)
	if share > 1 {
		return simulateShared(mp, oracle, nc, m, pl, k, share, args, base)
	}
	run, sp, err := simulateAt(mp, oracle.onNode(nc, k, share, p), m, pl, args, oracle.maxSteps, base)
	if err != nil || per < 2 {
		return run, sp, err
	}
	cores := float64(k)
	if eff, ok := lockstepCores(m, run, pl, computeStretch(run, share*nc.total(k))); ok {
		cores = min(cores, eff)
	}
	shared := max(1, busyRanks(run, pl)/cores)
	if math.Abs(shared-share) <= 1e-9*share {
		return run, sp, nil
	}
	ls := &interpreter.Lockstep{Factor: shared, Last: opsPerRank(run)}
	again := base
	again.Lockstep = ls
	return simulateAt(mp, oracle.onNode(nc, k, share, p), m, pl, args, oracle.maxSteps, again)
}

// simulateShared simulates nodes with more ranks than cores: the ranks of
// a node share its k cores as they compute (processor sharing in the
// simulator), each computing as k ranks sharing the node's memory do. So
// a rank that computes while the others wait (rank 0 filling matmul's
// matrices) has a core to itself, and ranks of unequal work keep the
// cores busy until the last one is done. Ranks that synchronise often
// get fewer cores than k where the machine's lockstep table says so.
func simulateShared(mp *model.Program, oracle *Oracle, nc *nodeContention, m *commmodel.Machine, pl *commmodel.Placement, k int, share float64, args []string, base interpreter.Options) (*interpreter.Run, *interpreter.SSAPrograms, error) {
	cores := make([]float64, pl.Nodes)
	for n := range cores {
		cores[n] = float64(k)
	}
	sh := &interpreter.Sharing{Node: pl.Node, Cores: cores}
	view := oracle.onNode(nc, k, 1, pl.P)
	shared := base
	shared.Sharing = sh
	run, sp, err := simulateAt(mp, view, m, pl, args, oracle.maxSteps, shared)
	if err != nil {
		return nil, nil, err
	}
	// The lockstep table is read with the compute between operations as
	// the uniformly stretched simulation saw it.
	eff, ok := lockstepCores(m, run, pl, computeStretch(run, share*nc.total(k)))
	if !ok || eff >= float64(k) {
		return run, sp, nil
	}
	// The table's cores hold while the ranks synchronise, between their
	// first and last operations; before and after (a long sort before the
	// exchanges begin, a check after the last gather) they have the
	// node's cores. Until 2026-11-29 one count held for the whole run,
	// the one that took as long as the two phases would: the phases then
	// had the right sum, but the main loop between them (validate's
	// interval) ran on more cores than the table gives it and the set-up
	// on fewer (docs/validation/outside-2026-11-28n, fault 5).
	sh.Between, sh.Last = make([]float64, pl.Nodes), opsPerRank(run)
	for n := range sh.Between {
		sh.Between[n] = eff
	}
	return simulateAt(mp, view, m, pl, args, oracle.maxSteps, shared)
}

// opsPerRank is each rank's MPI operations in run: where a simulation of
// the same configuration again finds a rank's last one (Lockstep.Last,
// Sharing.Last).
func opsPerRank(run *interpreter.Run) []int {
	ops := make([]int, len(run.Ranks))
	for r, st := range run.Ranks {
		ops[r] = st.Ops
	}
	return ops
}

// lockstepPattern is the lockstep table's pattern the run's ranks
// synchronise by: all-to-all when at least half its operations are
// (transpose's Alltoallv), else the ring's neighbour exchanges and
// reductions.
func lockstepPattern(run *interpreter.Run) string {
	if run.Ops > 0 && 2*run.AllToAll >= run.Ops {
		return commmodel.PatternAlltoall
	}
	return commmodel.PatternRing
}

// computeStretch is the mean compute time of a rank between two
// consecutive MPI operations, unscaled by the run's compute factor: the
// ranks' compute between their first and last operations over the gaps
// between their operations. What a rank computes before its first
// operation or after its last (cg's and heat's rank 0 checking the result
// serially after the final gather) is not spent synchronising; counted,
// it made heat's and cg's loops of microseconds between reductions read
// as far coarser with their default -check, and their predictions at 8
// and 16 ranks of a 16-core machine 65-86 % short (docs/validation.md).
func computeStretch(run *interpreter.Run, factor float64) float64 {
	total, between, gaps := phaseCompute(run)
	if gaps == 0 || factor <= 0 {
		return total
	}
	// Each rank's mean gap, weighted by the compute it does between its
	// operations: a farm's master, hundreds of operations with nothing
	// between them, does not make its workers' grain finer.
	if between <= 0 {
		return 0
	}
	weighted := 0.0
	for _, st := range run.Ranks {
		if st.Ops >= 2 {
			weighted += st.Between * st.Between / float64(st.Ops-1)
		}
	}
	return weighted / between / factor
}

// phaseCompute sums the ranks' compute, and of the ranks with two
// operations or more the compute between their first and last ones and
// the gaps between their operations.
func phaseCompute(run *interpreter.Run) (total, between float64, gaps int) {
	for _, st := range run.Ranks {
		total += st.Compute
		if st.Ops >= 2 {
			between += st.Between
			gaps += st.Ops - 1
		}
	}
	return total, between, gaps
}

// simulateAt simulates pl with the oracle's costs; opts says what to
// record (Timeline) and how the ranks share their cores (Sharing,
// Lockstep); the machine's noise is added here.
func simulateAt(mp *model.Program, oracle interpreter.Oracle, m *commmodel.Machine, pl *commmodel.Placement, args []string, maxSteps int64, opts interpreter.Options) (*interpreter.Run, *interpreter.SSAPrograms, error) {
	eo := interpreter.ExecOptions{Args: args, MaxSteps: maxSteps, FirstTouch: firstTouch(m, pl, opts.Sharing != nil)}
	if opts.Sharing != nil && m.Refetch != nil {
		// Ranks taking turns on a core find their working set gone from
		// its caches when they get it back (docs/validation/oversub-2026-11-28).
		perCore := float64(pl.PPN) / float64(m.CoresPerNode())
		eo.Refetch = func(bytes float64) float64 { return m.RefetchTime(bytes, perCore) }
	}
	if s, ok := oracle.(slowTeller); ok {
		eo.Slow = s.slowSimulation(pl.P, maxSteps)
	}
	sp, err := interpreter.NewSSAPrograms(mp.SSA, mp.Packages[0], oracle, pl.P, eo)
	if err != nil {
		return nil, nil, err
	}
	// Detours interrupt ranks that have a core each. On a node with more
	// ranks than cores a detour takes the core from whichever rank runs
	// then: spread over the ranks taking turns, it is part of the shared
	// cores' mean speed, which the profile's contention runs measured;
	// injected into one rank's work, processor sharing would stretch it
	// by the ranks per core.
	opts.RendezvousWait = m.RendezvousWait
	// A rank computing on after its node's other ranks have finished
	// (rank 0 checking the result) has the node to itself.
	opts.Node = pl.Node
	if m.Noise != nil && opts.Sharing == nil {
		perturb := m.Noise.Perturber()
		opts.Noise = func(t float64, rng *rand.Rand) float64 { return perturb(t, rng) }
	}
	run, err := interpreter.Simulate(simnet.New(m, pl), sp.Programs(), opts)
	if err != nil {
		return nil, nil, fmt.Errorf("%s%w", configPrefix(pl.P, pl.Nodes, pl.PPN), err)
	}
	return run, sp, nil
}

// firstTouch is what a page fault costs a rank of pl: the machine's time
// per page with as many ranks faulting at once as a node has ranks with a
// core each (more take turns on the cores, which processor sharing
// models). Where each rank has a core the faults are paid inside the
// transfers that write the buffer; where ranks share cores (shared) they
// are compute, which the sharing stretches.
func firstTouch(m *commmodel.Machine, pl *commmodel.Placement, shared bool) interpreter.FirstTouch {
	if m.PageFaults == nil {
		return interpreter.FirstTouch{}
	}
	return interpreter.FirstTouch{PageSize: m.PageFaults.PageSize, PageTime: m.FaultTime(1, min(pl.PPN, m.CoresPerNode())), InTransfer: !shared}
}

// lockstepCores is how many cores a node's ranks progress as if on, by
// the machine's lockstep table, when they compute compute seconds between
// MPI operations: the cores per rank of as many ranks as synchronise
// (lockstepRanks), times the node's ranks; the others are not held back
// by waking each other.
func lockstepCores(m *commmodel.Machine, run *interpreter.Run, pl *commmodel.Placement, compute float64) (float64, bool) {
	n := lockstepRanks(run, pl)
	cores, ok := m.EffectiveCoresFor(lockstepPattern(run), n, compute)
	return cores / float64(n) * float64(pl.PPN), ok
}

// lockstepRanks is the rank count whose lockstep rows apply to the run's
// busiest node in MPI operations: its ranks that start a tenth of the
// operations its busiest rank does or more. The ranks that take turns
// waking each other are those that synchronise often; a ping-pong's two
// among sixteen ranks that wait once at the end synchronise as two do,
// not as sixteen. (Messages would not do: matmul's rank 0 sends every
// block of its scatters, yet all its ranks synchronise in them.)
func lockstepRanks(run *interpreter.Run, pl *commmodel.Placement) int {
	top, n := make([]int, pl.Nodes), make([]int, pl.Nodes)
	for r, st := range run.Ranks {
		top[pl.Node[r]] = max(top[pl.Node[r]], st.Ops)
	}
	for r, st := range run.Ranks {
		if 10*st.Ops >= top[pl.Node[r]] {
			n[pl.Node[r]]++
		}
	}
	busiest := 0
	for node := range n {
		if top[node] > top[busiest] || top[node] == top[busiest] && n[node] > n[busiest] {
			busiest = node
		}
	}
	return max(2, min(n[busiest], pl.PPN))
}

// busyRanks is the effective number of ranks computing at once on the
// busiest node while they synchronise: the node's compute between each
// rank's first and last MPI operation over its largest rank's, so that
// ranks that compute little count little, and a rank checking the result
// alone after the last gather does not make the others count for less.
func busyRanks(run *interpreter.Run, pl *commmodel.Placement) float64 {
	sum, top := map[int]float64{}, map[int]float64{}
	for r, st := range run.Ranks {
		n := pl.Node[r]
		sum[n] += st.Between
		top[n] = max(top[n], st.Between)
	}
	busy := 0.0
	for n, t := range top {
		if t > 0 {
			busy = max(busy, sum[n]/t)
		}
	}
	return busy
}

// place puts the ranks on the machine and returns how many of a node's
// ranks compute at once (at most its cores) and the stretch of ranks that
// outnumber the cores and take turns (ranks/cores, else 1).
func place(m *commmodel.Machine, p, nodes, per int, order commmodel.Order) (*commmodel.Placement, int, float64, error) {
	cores := m.CoresPerNode()
	if per <= cores {
		pl, err := m.Place(p, nodes, per, order)
		return pl, per, 1, err
	}
	pl := &commmodel.Placement{P: p, Nodes: nodes, PPN: per, Order: order,
		Node: make([]int, p), Socket: make([]int, p), Core: make([]int, p)}
	for r := range p {
		n, k := r/per, r%per
		if order == commmodel.RoundRobin {
			n, k = r%nodes, r/nodes
		}
		core := k % cores
		pl.Node[r], pl.Socket[r], pl.Core[r] = n, core/m.CoresPerSocket, core%m.CoresPerSocket
	}
	return pl, cores, float64(per) / float64(cores), nil
}

// hasContention reports whether p has contention runs with each of ks ranks.
func hasContention(p *profiler.Profile, ks []int) bool {
	for _, k := range ks {
		if p.Contention == nil || !slices.Contains(p.Contention.PPN, k) {
			return false
		}
	}
	return true
}

// profileRanks is the rank count a profile made for predictions of np is
// made with: the smallest predicted, so that code that only runs with
// several ranks (a ping-pong) has profile data too, but no more than the
// cores (at least 2): ranks taking turns on a core are timed with the
// others' work in their regions, and thousands of goroutine ranks
// profiled on a laptop measured that, not the program.
func profileRanks(np []int, cores int) int {
	if len(np) == 0 {
		return 1
	}
	return min(slices.Min(np), max(cores, 2))
}

// profilePath is the profile file of opts: the given one (explicit), or
// where the default one is kept.
func profilePath(opts SpeedupOptions, prog *profiler.Program) (path string, explicit bool) {
	if opts.Profile != "" {
		return opts.Profile, true
	}
	if opts.ProfileOut != "" {
		return opts.ProfileOut, false
	}
	return filepath.Base(prog.Dir) + ".profile.json", false
}

// obtainProfile loads the given profile, or reuses or makes the default one.
func obtainProfile(ctx context.Context, opts SpeedupOptions, logf func(string, ...any)) (*profiler.Profile, error) {
	args := opts.ProfileArgs
	if args == nil {
		args = opts.Args
	}
	prog, err := profiler.LoadFiles(opts.Dir, opts.Package)
	if err != nil {
		return nil, err
	}
	path, explicit := profilePath(opts, prog)
	if _, statErr := os.Stat(path); statErr == nil && !opts.remake {
		p, err := profiler.Load(path)
		if err == nil {
			err = p.Check(prog, args, path)
		}
		if err == nil && !explicit && !hasContention(p, opts.ProfilePPN) {
			err = fmt.Errorf("it has no contention runs with %v ranks", opts.ProfilePPN)
		}
		if err == nil && !explicit {
			if rev := max(p.Meta.Probes, 1); rev < profiler.Probes {
				err = fmt.Errorf("an older profiler made it (probe revision %d, this one makes %d; docs/profile-format.md says what changed)", rev, profiler.Probes)
			}
		}
		if se := (*profiler.StaleError)(nil); explicit && errors.As(err, &se) && se.OnlyArgs() {
			err = fmt.Errorf("%w; or predict these arguments from it with --profile-args %q", err, strings.Join(se.Made, " "))
		}
		if err == nil || explicit {
			return p, err
		}
		logf("profile %s cannot be reused (%v); profiling again", path, err)
	}
	if !opts.remake {
		hint := ""
		if opts.ProfileArgs == nil && len(opts.Args) > 0 {
			// The profile runs the program for real, several times
			// (counting, timed, plain, contention runs): at a size meant
			// for a cluster that is hours.
			hint = "; this runs the program at the size predicted, several times: --profile-args gives a smaller size to profile at"
		}
		logf("profiling %s on this machine (once; reused while the sources and arguments stay the same%s)", strings.Join(append([]string{opts.Package}, args...), " "), hint)
	}
	np := profileRanks(opts.NP, runtime.NumCPU())
	// Five timed runs: each region's times come from the run that timed it
	// fastest, which keeps other processes' disturbances out of a profile
	// that every later prediction reuses.
	p, err := profiler.Run(ctx, profiler.Options{Dir: opts.Dir, Package: opts.Package, Args: args, NP: np, Repeat: 5, PPN: opts.ProfilePPN, Plain: true})
	if err != nil {
		if np > 1 && !errors.Is(err, context.Canceled) {
			return nil, fmt.Errorf("%w\n(the profile runs the program with %d ranks, the smallest predicted count up to this computer's cores: give --profile-args that work with %d ranks, or profile it yourself with predict profile and pass --profile)", err, np, np)
		}
		return nil, err
	}
	if err := p.Save(path); err != nil {
		return nil, err
	}
	logf("wrote %s", path)
	return p, nil
}
