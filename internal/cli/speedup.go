package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
	"github.com/parpredict/parpredict/plots"
	"github.com/parpredict/parpredict/prediction"
	"github.com/parpredict/parpredict/report"
)

func init() { register(newSpeedupCmd) }

type speedupOptions struct {
	np, ppn     string
	machine     string
	order       string
	profile     string
	profileArgs string
	// profileArgsSet: --profile-args was given, if empty (profile with
	// no arguments rather than the predicted ones).
	profileArgsSet bool
	profilePPN     string
	csv, json      bool
	plot           string
	threshold      float64
	quiet          bool
	jobs           int
	at             int    // per-rank totals for this P (0: none, or the largest with timeline)
	timeline       string // Chrome trace file of the --at configuration
	maxSteps       int64
	oversubscribe  bool
}

// maxStepsUsage is the help of --max-steps, shared by speedup and validate.
const maxStepsUsage = "SSA instructions a rank may execute outside reduced loops before the prediction gives up on it as an endless loop (0: 2e9)"

func newSpeedupCmd(streams *IO) *cobra.Command {
	o := &speedupOptions{}
	cmd := &cobra.Command{
		Use:   "speedup PACKAGE [-- PROGRAM ARGS...]",
		Short: "Predict run time and speedup for a range of process counts and placements",
		Long: `speedup builds the program's model, reuses or makes a profile of it on this
machine, and interprets the model for every rank count (--np) and ranks per
node (--ppn) on a machine description (--machine: a preset name or a YAML
file). It prints predicted time, speedup, efficiency, Amdahl's and
Gustafson's curves with the serial fraction estimated from the model, the
Karp-Flatt fraction, the optimal configuration and the end of the
scalability range. Speedups are measured against P = 1, or against the
smallest P predicted when the sweep has none (a program that needs two
ranks). A configuration where the program panics or deadlocks is listed
under the table with the reason (a deadlock rank by rank); the others are
still predicted, and the exit status is 1.`,
		Example: `  predict speedup ./examples/heat
  predict speedup ./examples/matmul --np 1:64 --profile-args "-n 400" -- -n 20000
  predict speedup ./examples/mandelbrot --machine gige-smp --ppn 4,8 --plot speedup.png
  predict speedup ./examples/cg --np 1,2,4,8 --json
  predict speedup ./examples/heat --np 1:16 --at 16 --timeline heat16.json   # open in ui.perfetto.dev
  predict speedup ./examples/heat --machine local --profile-ppn 1,2 --np 1,2,4
  predict speedup ./examples/heat --machine local --np 1,2,4,8 --ppn 8 --oversubscribe --at 8   # validate's P = 8 here
  predict speedup ./examples/pingpong --np 2:16 -- -reps 200   # needs two ranks: measured from P = 2`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			pkg, progArgs := args[0], args[1:]
			if cmd.ArgsLenAtDash() > 1 {
				return &FlagError{fmt.Errorf("speedup takes one package before --, got %v", args[:cmd.ArgsLenAtDash()])}
			}
			o.profileArgsSet = cmd.Flags().Changed("profile-args")
			return runSpeedup(cmd.Context(), streams, o, pkg, progArgs)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.np, "np", "", "rank counts: a list (1,2,4) or a range (1:64); default: powers of two up to the machine's cores, every node's (192 on ib-qdr)")
	f.StringVar(&o.ppn, "ppn", "", "ranks per node, a list (4,8); default: every core of a node")
	f.StringVar(&o.machine, "machine", "ib-qdr", "machine: a preset (ib-qdr, gige-smp, local) or a YAML file")
	f.StringVar(&o.order, "order", "block", "placement of ranks on nodes: block or round-robin")
	f.BoolVar(&o.oversubscribe, "oversubscribe", false, "allow more ranks per node (--ppn) than the node has cores: they share the cores, as validate's runs on this computer do")
	f.StringVar(&o.profile, "profile", "", "profile file, made here if missing; one that no longer fits the sources or arguments is an error saying how to remake it (default: NAME.profile.json, made here if missing or stale)")
	f.StringVar(&o.profileArgs, "profile-args", "", "program arguments for the profiling run, e.g. a smaller size (default: the predicted ones; \"\" for none)")
	f.StringVar(&o.profilePPN, "profile-ppn", "", "contention runs of a profile made here (1,2,4 or 1:8): each region then slows down with the ranks on a node as measured, not by the machine's table")
	f.BoolVar(&o.csv, "csv", false, "print CSV")
	f.BoolVar(&o.json, "json", false, "print JSON")
	f.StringVar(&o.plot, "plot", "", "also write the speedup plot to this .png or .svg file")
	f.Float64Var(&o.threshold, "threshold", 0.5, "efficiency below which the scalability range ends")
	f.Int64Var(&o.maxSteps, "max-steps", 0, maxStepsUsage)
	f.BoolVar(&o.quiet, "quiet", false, "no progress display")
	f.IntVar(&o.jobs, "jobs", 0, "configurations simulated at once (default: one per CPU); those at once have no more ranks in all than the largest, so memory stays that of the largest")
	f.IntVar(&o.at, "at", 0, "also show per-rank compute, MPI and wait totals of the configuration with this many ranks (one of --np)")
	f.StringVar(&o.timeline, "timeline", "", "write the per-rank timeline of the --at configuration (default: the largest P) to this Chrome trace .json file")
	return cmd
}

func runSpeedup(ctx context.Context, streams *IO, o *speedupOptions, pkg string, args []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	format, err := reportFormat(o.csv, o.json)
	if err != nil {
		return err
	}
	order, err := commmodel.ParseOrder(o.order)
	if err != nil {
		return &FlagError{err}
	}
	m, err := commmodel.Load(o.machine)
	if err != nil {
		return err
	}
	np, err := parseCounts(o.np, machineCores(m))
	if err != nil {
		return &FlagError{fmt.Errorf("--np: %w", err)}
	}
	var ppn []int
	if o.ppn != "" {
		if ppn, err = parseCounts(o.ppn, 0); err != nil {
			return &FlagError{fmt.Errorf("--ppn: %w", err)}
		}
	}
	opts := prediction.SpeedupOptions{Package: pkg, Args: args, NP: np, PPN: ppn, Order: order,
		Machine: o.machine, Profile: o.profile, Threshold: o.threshold, MaxSteps: o.maxSteps,
		Jobs: o.jobs, Oversubscribe: o.oversubscribe, Log: logTo(streams)}
	if o.jobs < 0 {
		return &FlagError{fmt.Errorf("--jobs %d: want 0 (one per CPU) or more", o.jobs)}
	}
	if o.maxSteps < 0 {
		return &FlagError{fmt.Errorf("--max-steps %d: want 0 (the default) or more", o.maxSteps)}
	}
	opts.ProfileArgs = profileArgs(o.profileArgsSet, o.profileArgs)
	if o.profilePPN != "" {
		if opts.ProfilePPN, err = parseCounts(o.profilePPN, 0); err != nil {
			return &FlagError{fmt.Errorf("--profile-ppn: %w", err)}
		}
	}
	switch {
	case o.at < 0:
		return &FlagError{fmt.Errorf("--at %d: want a positive rank count", o.at)}
	case o.at > 0 && !slices.Contains(np, o.at):
		return &FlagError{fmt.Errorf("--at %d is not one of the rank counts predicted (--np)", o.at)}
	case o.at > 0:
		opts.TimelineP = o.at
	case o.timeline != "":
		opts.TimelineP = slices.Max(np)
	}
	if err := checkOutputs(output{flag: "--plot", path: o.plot, plot: true}, output{flag: "--timeline", path: o.timeline},
		output{flag: "--profile", path: o.profile, keep: true}); err != nil {
		return err
	}
	progress, finish := sweepProgress(streams, o.quiet)
	defer finish()
	opts.Progress = progress
	pred, err := prediction.Speedup(ctx, opts)
	if err != nil {
		return err
	}
	if err := report.Write(streams.Out, pred.Report, format); err != nil {
		return err
	}
	if format == report.Text {
		for _, s := range pred.Skipped {
			fmt.Fprintf(streams.Out, "skipped: %s\n", s)
		}
		writeAssumptions(streams.Out, pred.Assumptions)
		writeNotes(streams.Out, pred.Notes)
	}
	if o.timeline != "" {
		if pred.Timeline == nil {
			return fmt.Errorf("no timeline: P = %d was not predicted on %s (see skipped and failed)", opts.TimelineP, o.machine)
		}
		if err := report.WriteFile(o.timeline, pred.Timeline.WriteChromeTrace); err != nil {
			return err
		}
		fmt.Fprintf(streams.Err, "predict: wrote %s (P = %d; open it in ui.perfetto.dev or chrome://tracing)\n", o.timeline, opts.TimelineP)
	}
	if o.plot != "" {
		p, err := plots.Speedup(pred.Report)
		if err != nil {
			return err
		}
		if err := plots.Save(p, o.plot); err != nil {
			return err
		}
		fmt.Fprintf(streams.Err, "predict: wrote %s\n", o.plot)
	}
	if n := len(pred.Failed); n > 0 {
		// The table stands for the others; the exit status says that the
		// program fails in some configurations.
		return fmt.Errorf("%d of %d configurations failed (see failed: under the table)", n, n+len(pred.Report.Rows))
	}
	return nil
}

// profileArgs are the profiling run's arguments from --profile-args:
// nil (the predicted ones) when it was not given, none when it was given
// empty.
func profileArgs(set bool, s string) []string {
	if !set {
		return nil
	}
	return append([]string{}, strings.Fields(s)...)
}

// machineCores is the largest rank count --np defaults to: every core of
// every node, since how many nodes to ask for is half the question.
func machineCores(m *commmodel.Machine) int { return m.Nodes * m.CoresPerNode() }

// parseCounts reads "1,2,4" or "1:64" (every count from 1 to 64). Empty
// means powers of two up to def (def 0: empty is an error).
func parseCounts(s string, def int) ([]int, error) {
	if s == "" {
		if def <= 0 {
			return nil, fmt.Errorf("no counts given")
		}
		var out []int
		for p := 1; p <= def; p *= 2 {
			out = append(out, p)
		}
		if out[len(out)-1] != def {
			out = append(out, def)
		}
		return out, nil
	}
	if lo, hi, ok := strings.Cut(s, ":"); ok {
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a < 1 || b < a || b > 1<<16 {
			return nil, fmt.Errorf("range %q: want FROM:TO with 1 <= FROM <= TO <= 65536", s)
		}
		out := make([]int, 0, b-a+1)
		for p := a; p <= b; p++ {
			out = append(out, p)
		}
		return out, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive count", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// writeAssumptions lists what a prediction's simulations assumed under
// the report's text.
func writeAssumptions(w io.Writer, as []interpreter.Assumption) {
	if len(as) == 0 {
		return
	}
	fmt.Fprintln(w, "\nassumptions:")
	for _, a := range as {
		fmt.Fprintf(w, "  %s: %s\n", a.Pos, a.What)
	}
}

// writeNotes lists a prediction's notes under the report's text.
func writeNotes(w io.Writer, notes []string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintln(w, "\nnotes:")
	for _, n := range notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
}
