package cli

import (
	"errors"
	"io"

	"github.com/parpredict/parpredict/loopnest"
	"github.com/parpredict/parpredict/model"
	"github.com/spf13/cobra"
)

func init() { register(newLoopsCmd) }

// loopsOptions holds the flags of predict loops.
type loopsOptions struct {
	Patterns []string
	Dir      string
	Tags     string
	JSON     bool
	Pure     []string
}

func newLoopsCmd(streams *IO) *cobra.Command {
	opts := &loopsOptions{}
	cmd := &cobra.Command{
		Use:   "loops PACKAGES...",
		Short: "List the loop nests of a program with trip counts and the reduction plan",
		Long: `loops analyses every loop of the named packages (closures included): its
induction variable, its trip count as a symbolic expression over parameters,
Rank(), Size(), len(...) and values computed before the loop, whether that
count is an upper bound (break, return) or data-dependent (a convergence
test), whether it depends on the rank or size (iterations distributed over
ranks), the MPI operations and calls inside it, and whether the nest is
reduced: replaced by a block whose time is a function of its trip counts.
A nest is reduced only when it has no MPI calls, calls only pure functions,
has a trip count known at entry, and no result that steers later branches or
communication.`,
		Example: `  predict loops ./examples/heat
  predict loops --json ./examples/cg ./examples/matmul
  predict loops --pure example.com/lib.Kernel ./myprog`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &FlagError{errors.New("loops: give at least one package, e.g. ./examples/heat")}
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			opts.Patterns = args
			return loopsRun(opts, streams.Out)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the nests as JSON")
	cmd.Flags().StringVar(&opts.Dir, "dir", "", "directory to resolve the packages in (default: the current one)")
	cmd.Flags().StringVar(&opts.Tags, "tags", "", "build tags, as for go build")
	cmd.Flags().StringSliceVar(&opts.Pure, "pure", nil, "more functions to treat as pure (path.Func, path.Type.Method or a package path)")
	return cmd
}

func loopsRun(opts *loopsOptions, out io.Writer) error {
	cfg := model.Config{Dir: opts.Dir}
	if opts.Tags != "" {
		cfg.BuildFlags = []string{"-tags=" + opts.Tags}
	}
	pure := loopnest.NewRegistry(append(append([]string(nil), loopnest.DefaultPure...), opts.Pure...)...)
	prog, err := loopnest.Load(cfg, opts.Patterns, pure)
	if err != nil {
		return err
	}
	rep := prog.Report()
	if opts.JSON {
		return rep.WriteJSON(out)
	}
	return rep.WriteText(out)
}
