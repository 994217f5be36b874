package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/commmodel/bench"
	"github.com/parpredict/parpredict/internal/atomicfile"
	"github.com/parpredict/parpredict/mpi"
	"github.com/parpredict/parpredict/profiler/probe"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

func init() { register(newBenchCmd) }

type benchOptions struct {
	out       string
	report    string
	name      string
	np        int // 0: 2, or the whole job under mpirun
	pairs     int
	maxLaunch int
	ringSync  bool
	quiet     bool
	json      bool
}

func newBenchCmd(streams *IO) *cobra.Command {
	opts := &benchOptions{}
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Calibrate a machine file on this machine by the MPIPerf method",
		Long: `bench runs point-to-point, contention, collective and compute benchmarks over
the mpi package (goroutine backend: all ranks in this process; built with
-tags openmpi and started by mpirun: one process per rank, see
docs/openmpi.md), times every
data point by the MPIPerf method (synchronised clocks, launches in slots of
a global clock, invalid launches dropped, warm-up discarded, the maximum
over ranks, a 25% trimmed mean, its standard error and Student confidence
intervals), checks the timer with WaitPatternUp and WaitPatternNull, fits
the ping-pong times by segments to find protocol changes, and writes a
machine file and a report. It took 16 s on the 2-core development VM (2026-11-26).

Under mpirun every process runs the benchmarks; world rank 0 alone prints the
report and writes the files, the others print nothing and exit 0. --np
defaults to the whole job there; contention needs 4 processes (2 pairs) and
is left out, with a note in the report and the machine file, in a smaller
job.`,
		Example: `  predict bench                                  # writes machines/local.yaml and prints the report
  predict bench --out /tmp/me.yaml --report /tmp/me.txt --quiet
  predict bench --np 4 --pairs 2 --json > report.json
  go build -tags openmpi -o predict-ompi ./cmd/predict
  mpirun -np 4 ./predict-ompi bench --out cluster.yaml --quiet   # rank 0 writes cluster.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("np") {
				opts.np = 0
			}
			return benchRun(opts, streams)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.out, "out", filepath.Join("machines", "local.yaml"), "machine file to write")
	f.StringVar(&opts.report, "report", "", "also write the report to this file")
	f.StringVar(&opts.name, "name", "local", "machine name recorded in the file")
	f.IntVar(&opts.np, "np", 2, "ranks for ping-pong and collectives (under mpirun: default the whole job)")
	f.IntVar(&opts.pairs, "pairs", 2, "measure contention for cf = 1..pairs (2*pairs ranks)")
	f.IntVar(&opts.maxLaunch, "max-launches", bench.DefaultParams.MaxLaunches, "stop a data point after this many launches")
	f.BoolVar(&opts.ringSync, "ring-sync", false, "synchronise clocks by MPIPerf's ring algorithm instead of the linear one")
	f.BoolVar(&opts.quiet, "quiet", false, "no progress bar")
	f.BoolVar(&opts.json, "json", false, "print the report as JSON")
	return cmd
}

func benchRun(opts *benchOptions, streams *IO) error {
	if opts.np == 1 || opts.np < 0 {
		return &FlagError{fmt.Errorf("--np must be at least 2")}
	}
	if opts.pairs < 0 || opts.maxLaunch < 1 {
		return &FlagError{fmt.Errorf("--pairs must be >= 0 and --max-launches >= 1")}
	}
	// Under a launcher only world rank 0 writes (its node's directories
	// are the ones that count).
	if probe.WorldRank() == 0 {
		if err := checkOutputs(output{flag: "--out", path: opts.out}, output{flag: "--report", path: opts.report}); err != nil {
			return err
		}
	}
	o := bench.DefaultOptions()
	o.NP, o.ContentionPairs, o.Name = opts.np, opts.pairs, opts.name
	o.Params.MaxLaunches = opts.maxLaunch
	o.RingSync = opts.ringSync
	if !opts.quiet && isTerminal(streams.Err) {
		var bar *progressbar.ProgressBar
		o.Progress = func(done, total int, label string) {
			if bar == nil {
				bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(streams.Err),
					progressbar.OptionSetDescription("bench"), progressbar.OptionShowCount(),
					progressbar.OptionClearOnFinish())
			}
			bar.Describe(fmt.Sprintf("bench %-18s", label))
			_ = bar.Set(done)
		}
	}
	m, rep, err := bench.Calibrate(o)
	// Under mpirun the MPI library must be shut down before the process
	// exits, or the job counts as failed; without MPI this does nothing.
	mpi.Finalize()
	if errors.Is(err, bench.ErrOtherRank) {
		return nil // world rank 0 prints and writes
	}
	if err != nil {
		return err
	}
	data, err := bench.MarshalMachine(m, fmt.Sprintf(
		"Written by `predict bench` on %s (%s, %d cores, %s).\nSee docs/bench.md; the format is docs/machine-format.md.", rep.Date, rep.CPU, rep.Cores, rep.Go))
	if err != nil {
		return err
	}
	if err := atomicfile.Write(opts.out, data); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if opts.report != "" {
		if err := atomicfile.WriteFunc(opts.report, func(w io.Writer) error { return bench.WriteReport(w, rep) }); err != nil {
			return fmt.Errorf("bench: writing %s: %w", opts.report, err)
		}
	}
	if opts.json {
		enc := json.NewEncoder(streams.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	if err := bench.WriteReport(streams.Out, rep); err != nil {
		return err
	}
	fmt.Fprintf(streams.Out, "\nwrote %s (eager limit %s)\n", opts.out, commmodel.FormatSize(m.EagerLimit))
	return nil
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
