package cli

import (
	"context"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/parpredict/parpredict/plots"
	"github.com/parpredict/parpredict/prediction"
	"github.com/parpredict/parpredict/report"
)

func init() { register(newValidateCmd) }

type validateOptions struct {
	np             string
	machine        string
	calibrate      bool
	profile        string
	reps           int
	interval       int
	csv, json      bool
	plot           string
	quiet          bool
	maxSteps       int64
	reprofile      float64
	calibrateStale bool
}

func newValidateCmd(streams *IO) *cobra.Command {
	o := &validateOptions{}
	cmd := &cobra.Command{
		Use:   "validate PACKAGE [-- PROGRAM ARGS...]",
		Short: "Run the program for real and compare its times with the prediction",
		Long: `validate runs the program with the goroutine backend on this computer at each
rank count (--np; counts above the core count are oversubscribed), and
predicts the same configurations with a profile made here and the machine
file of this computer (--machine, default local). It compares the time of
the program's main loop, user interval 1 (BeginInterval(1)/EndInterval(1)),
read from the run's trace and from the simulation, where the program marks
it; --interval 0 (the default for a program that marks no interval 1)
compares whole runs instead, up to the last rank's end (the process's start-up and
exit, which no part of the model holds, left out). Each count runs --reps times, the counts taking turns, and
the fastest run is kept (the least disturbed by other processes, as the
profile keeps each region's fastest time). Under the table a line compares
the machine's speed in these runs with its speed when the profile was made
(the program's ranks' bodies at the profile's rank count, same arguments):
a machine that slowed down since moves every error by as much. A machine
file calibrated on another CPU or core count is named there too (and before
the runs); --calibrate measures this computer first (predict bench's suite,
15 s on a 2-core machine) and predicts with that instead, without saving it
(predict bench writes machines/local.yaml to keep one).

When the machine ran faster or slower in the real runs than when the
profile was made (by more than --reprofile, 10 % by default), a slow spell
during profiling would move every prediction by as much: the program is
then profiled again after the runs, into the same profile file, and the
configurations predicted with the new profile; the report says so
(--reprofile 0 never profiles again).

Before the runs a ping-pong checks the machine file's point-to-point times
against this computer and says when they are 1.5 times off or more either
way (a file made in a slow spell, or on another day's host); with
--calibrate-stale validate then measures this computer itself (as
--calibrate, not saved) and predicts with that.`,
		Example: `  predict validate ./examples/heat --np 1,2,4,8 -- -n 400 -steps 200 -check=false
  predict validate ./examples/matmul --np 1,2 --plot matmul-validate.png -- -n 300
  predict validate ./examples/cg --np 1,2,4,8 --calibrate -- -check=false`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() > 1 {
				return &FlagError{fmt.Errorf("validate takes one package before --, got %v", args[:cmd.ArgsLenAtDash()])}
			}
			if o.calibrate && cmd.Flags().Changed("machine") {
				return &FlagError{fmt.Errorf("--calibrate measures this computer instead of reading --machine: give one of them")}
			}
			if !cmd.Flags().Changed("interval") {
				o.interval = prediction.AutoInterval
			}
			return runValidate(cmd.Context(), streams, o, args[0], args[1:])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.np, "np", "", "rank counts: a list (1,2,4) or a range (1:8); default: powers of two up to this computer's cores")
	f.StringVar(&o.machine, "machine", "local", "machine file describing this computer")
	f.BoolVar(&o.calibrate, "calibrate", false, "measure this computer first (predict bench's suite) and predict with that instead of --machine")
	f.StringVar(&o.profile, "profile", "", "profile file (default: NAME.profile.json, made here if missing or stale)")
	f.IntVar(&o.reps, "reps", 5, "real runs per rank count (the fastest is kept)")
	f.IntVar(&o.interval, "interval", 1, "user interval to compare; 0: whole runs (default: 1 where the program marks it, else whole runs)")
	f.BoolVar(&o.csv, "csv", false, "print CSV")
	f.BoolVar(&o.json, "json", false, "print JSON")
	f.StringVar(&o.plot, "plot", "", "also write the actual-vs-predicted plot to this .png or .svg file")
	f.BoolVar(&o.quiet, "quiet", false, "no progress display")
	f.Int64Var(&o.maxSteps, "max-steps", 0, maxStepsUsage)
	f.BoolVar(&o.calibrateStale, "calibrate-stale", false, "when a ping-pong before the runs finds --machine 1.5 times off this computer, measure this computer (as --calibrate) and predict with that")
	f.Float64Var(&o.reprofile, "reprofile", 0.1, "profile again after the runs when the machine's speed in them differs from the profile's by more than this share (0: never)")
	return cmd
}

// validateCounts reads validate's --np: the real runs happen here, so by
// default on as many ranks as this computer has cores, and the powers of
// two below.
func validateCounts(s string) ([]int, error) { return parseCounts(s, runtime.NumCPU()) }

func runValidate(ctx context.Context, streams *IO, o *validateOptions, pkg string, args []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	format, err := reportFormat(o.csv, o.json)
	if err != nil {
		return err
	}
	np, err := validateCounts(o.np)
	if err != nil {
		return &FlagError{fmt.Errorf("--np: %w", err)}
	}
	if o.reps < 1 || (o.interval < 0 && o.interval != prediction.AutoInterval) || o.maxSteps < 0 || !(o.reprofile >= 0) {
		return &FlagError{fmt.Errorf("--reps must be at least 1, --interval, --max-steps and --reprofile at least 0")}
	}
	opts := prediction.ValidateOptions{Package: pkg, Args: args, NP: np, Machine: o.machine, Calibrate: o.calibrate, Profile: o.profile,
		Reps: o.reps, Interval: o.interval, MaxSteps: o.maxSteps, Reprofile: o.reprofile, CalibrateStale: o.calibrateStale,
		Log: logTo(streams)}
	if err := checkOutputs(output{flag: "--plot", path: o.plot, plot: true}, output{flag: "--profile", path: o.profile, keep: true}); err != nil {
		return err
	}
	progress, finish := sweepProgress(streams, o.quiet)
	defer finish()
	opts.Progress = progress
	v, err := prediction.Validate(ctx, opts)
	if err != nil {
		return err
	}
	if format == report.Text {
		fmt.Fprintf(streams.Out, "compared: %s\n", v.What)
	}
	if err := report.Write(streams.Out, v.Report, format); err != nil {
		return err
	}
	if format == report.Text {
		writeAssumptions(streams.Out, v.Assumptions)
		writeNotes(streams.Out, v.Notes)
	}
	if o.plot != "" {
		p, err := plots.Validation(v.Report, plots.Times)
		if err != nil {
			return err
		}
		if err := plots.Save(p, o.plot); err != nil {
			return err
		}
		fmt.Fprintf(streams.Err, "predict: wrote %s\n", o.plot)
	}
	if n := len(v.Report.Failed); n > 0 {
		// As speedup: the table stands for the others, the exit status
		// says that some configurations could not be predicted.
		return fmt.Errorf("%d of %d predictions failed (see prediction failed: under the table)", n, n+len(v.Report.Rows))
	}
	return nil
}
