package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/parpredict/parpredict/profiler"
)

func init() { register(newProfileCmd) }

// profileOptions are the flags of predict profile.
type profileOptions struct {
	Package  string
	Args     []string
	NP       int
	PPN      []int
	Out      string
	JSON     bool
	Quiet    bool
	Repeat   int
	Baseline bool
	Top      int
	Budget   float64
	Output   bool // show the program's own output
	Launcher string
	Tags     string
	Work     string
}

func newProfileCmd(streams *IO) *cobra.Command {
	opts := &profileOptions{}
	cmd := &cobra.Command{
		Use:   "profile PACKAGE [-- program args]",
		Short: "Time the model's pieces of a program on this node",
		Long: `profile instruments a copy of the program's own packages (through
go build -overlay; the user's files are never changed), runs it once with
counters to decide where timers are cheap enough, then timed, and writes the
profile: per region its own time per execution and per iteration, loop trip
counts, branch frequencies, library call costs, MPI time per call site, the
ParJava balance test of outermost loops, and, with --ppn, how the compute
slows down when k ranks share this node.

The profile records the hash of every analysed source file; using it after a
file changed fails with a message naming the file and this command.

With --launcher the program is started by an MPI launcher instead of with
-np: build it with --tags openmpi and give the launcher's command line, in
which {np} stands for each run's rank count (without it, the launcher's own
count is the profile's). Every process writes its own counters and the
profile merges them as the goroutine backend's ranks share theirs; the MPI
trace is written by world rank 0. One node only: the counter files are
read from this machine's temporary directory (docs/openmpi.md).`,
		Example: `  predict profile ./examples/heat -- -n 2000
  predict profile ./examples/matmul --np 1 --ppn 1,2,4 --baseline --repeat 3 -- -n 400
  predict profile ./examples/mandelbrot -o mandel.json --json
  predict profile ./examples/heat --np 4 --tags openmpi --launcher "mpirun --oversubscribe -np {np}" -- -n 2000`,
		Args: func(cmd *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() > 1 || (cmd.ArgsLenAtDash() < 0 && len(args) != 1) || len(args) == 0 || cmd.ArgsLenAtDash() == 0 {
				return &FlagError{errors.New("profile needs one PACKAGE, then optionally -- and the program's arguments")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Package = args[0]
			opts.Args = args[1:]
			if opts.Launcher != "" && !strings.Contains(opts.Launcher, profiler.NPPlaceholder) && !cmd.Flags().Changed("np") {
				opts.NP = 0 // the launcher's count
			} else if opts.NP < 1 {
				return &FlagError{fmt.Errorf("--np must be at least 1, got %d", opts.NP)}
			}
			if opts.Repeat < 1 {
				return &FlagError{fmt.Errorf("--repeat must be at least 1, got %d", opts.Repeat)}
			}
			if !(opts.Budget > 0 && opts.Budget <= 1) {
				return &FlagError{fmt.Errorf("--budget is a share of the run time, in (0, 1], got %g", opts.Budget)}
			}
			for _, k := range opts.PPN {
				if k < 1 {
					return &FlagError{fmt.Errorf("--ppn entries must be at least 1, got %d", k)}
				}
			}
			return runProfile(cmd.Context(), streams, opts)
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.NP, "np", 1, "ranks of the profiled run")
	f.IntSliceVar(&opts.PPN, "ppn", nil, "rerun with k ranks on this node for each k (e.g. 1,2,4) and record the slowdown")
	f.StringVarP(&opts.Out, "out", "o", "", "profile file (default NAME.profile.json, NAME the package directory)")
	f.BoolVar(&opts.JSON, "json", false, "print the profile as JSON instead of the summary")
	f.BoolVarP(&opts.Quiet, "quiet", "q", false, "no progress display")
	f.IntVar(&opts.Repeat, "repeat", 3, "timed runs (up to twice as many while they still get faster): the fastest gives the times; the balance test counts only deviations every run shows")
	f.BoolVar(&opts.Baseline, "baseline", false, "also run the uninstrumented program: overhead and own-time check")
	f.IntVar(&opts.Top, "top", 10, "hottest regions in the summary")
	f.Float64Var(&opts.Budget, "budget", 0.05, "share of the run time that timers may cost")
	f.BoolVar(&opts.Output, "show-output", false, "pass the program's output through (to stderr)")
	f.StringVar(&opts.Launcher, "launcher", "", `start the program with this command line ({np}: the rank count), e.g. "mpirun -np {np}"`)
	f.StringVar(&opts.Tags, "tags", "", "build tags for the program, comma-separated (openmpi: the Open MPI backend)")
	f.StringVar(&opts.Work, "work", "", "keep the instrumented sources, overlay files and binaries in this directory")
	return cmd
}

// runProfile profiles and writes the profile and its summary.
func runProfile(ctx context.Context, streams *IO, opts *profileOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	out := opts.Out
	if out == "" {
		name := filepath.Base(filepath.Clean(opts.Package))
		if name == "." || name == string(filepath.Separator) {
			wd, _ := os.Getwd()
			name = filepath.Base(wd)
		}
		out = name + ".profile.json"
	}
	if err := checkOutputs(output{flag: "--out", path: out}); err != nil {
		return err
	}
	popts := profiler.Options{
		Package: opts.Package, Args: opts.Args, NP: opts.NP, PPN: opts.PPN,
		Baseline: opts.Baseline, Repeat: opts.Repeat, Budget: opts.Budget,
		Launcher: strings.Fields(opts.Launcher), Work: opts.Work,
	}
	for _, t := range strings.Split(opts.Tags, ",") {
		if t = strings.TrimSpace(t); t != "" {
			popts.Tags = append(popts.Tags, t)
		}
	}
	if opts.Output {
		popts.Stderr, popts.Stdout = streams.Err, streams.Err
	}
	stop := progress(streams.Err, opts.Quiet, &popts)
	p, err := profiler.Run(ctx, popts)
	stop()
	if err != nil {
		return err
	}
	if err := p.Save(out); err != nil {
		return err
	}
	if opts.JSON {
		enc := json.NewEncoder(streams.Out)
		enc.SetIndent("", " ")
		return enc.Encode(p)
	}
	if err := p.WriteSummary(streams.Out, opts.Top); err != nil {
		return err
	}
	_, err = fmt.Fprintf(streams.Out, "profile written to %s\n", out)
	return err
}

// progress shows a spinner with the current stage on w when w is a
// terminal and not quiet; it returns the function that clears it.
func progress(w io.Writer, quiet bool, opts *profiler.Options) func() {
	f, ok := w.(*os.File)
	if quiet || !ok || !isTerminal(f) {
		return func() {}
	}
	bar := progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond),
	)
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = bar.Add(1)
			}
		}
	}()
	opts.Progress = func(stage string) { bar.Describe(strings.TrimSpace(stage)) }
	return func() {
		close(done)
		_ = bar.Finish()
	}
}
