package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// FlagError marks a usage mistake: Main prints the command's usage hint and
// exits with status 2.
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// IO carries the streams a command writes to, so tests can capture them.
type IO struct {
	Out io.Writer
	Err io.Writer
}

// subcommands lists the constructors of predict's subcommands. Each command
// file adds itself in an init function, which keeps command files
// independent of each other.
var subcommands []func(*IO) *cobra.Command

func register(newCmd func(*IO) *cobra.Command) { subcommands = append(subcommands, newCmd) }

// NewRootCmd builds the predict command tree.
func NewRootCmd(streams *IO) *cobra.Command {
	root := &cobra.Command{
		Use:   "predict",
		Short: "Predict how a Go SPMD (MPI-style) program scales on a cluster",
		Long: `predict builds a model of a Go SPMD program (written against
github.com/parpredict/parpredict/mpi) from its SSA form, times the model's
pieces once on one node, and interprets the model for any number of
processes with a communication cost model standing in for the network.`,
		Example: `  predict speedup ./examples/heat             # profile here once, predict P = 1, 2, 4, ... on the ib-qdr preset
  predict speedup ./examples/matmul --np 1:64 --profile-args "-n 400" -- -n 20000
  predict validate ./examples/heat --np 1,2,4  # real runs here against predictions
  predict profile ./examples/cg -- -n 256      # only the profile, with its hottest regions
  predict model ./examples/heat                # the control trees the prediction interprets`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.Err)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &FlagError{err} })
	for _, newCmd := range subcommands {
		root.AddCommand(newCmd(streams))
	}
	return root
}

// Main runs predict with args and returns the process exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	streams := &IO{Out: stdout, Err: stderr}
	root := NewRootCmd(streams)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "predict: %v\n", err)
	var flagErr *FlagError
	if errors.As(err, &flagErr) {
		fmt.Fprintln(stderr, "Run 'predict --help' for usage.")
		return 2
	}
	return 1
}

// usageArgs makes a cobra argument validator's errors usage errors, so a
// missing or extra argument exits with status 2 and the usage hint.
func usageArgs(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := v(cmd, args); err != nil {
			return &FlagError{err}
		}
		return nil
	}
}
