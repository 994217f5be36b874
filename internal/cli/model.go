package cli

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/parpredict/parpredict/model"
	"github.com/spf13/cobra"
)

func init() { register(newModelCmd) }

// modelOptions are the flags of predict model.
type modelOptions struct {
	patterns []string
	funcs    string
	json     bool
	tags     string
}

func newModelCmd(streams *IO) *cobra.Command {
	opts := &modelOptions{}
	cmd := &cobra.Command{
		Use:   "model PACKAGES...",
		Short: "Print the control trees of a program's functions",
		Long: `model loads the named packages (import paths or directories, as go build
takes them), builds their SSA form and prints, for every function, its
control tree from structural analysis: regions (block, if-then, if-then-else,
case, proper, self-loop, while-loop, natural-loop, improper) down to basic
blocks, which are split at calls into segments (compute, call, libcall,
dyncall, mpi). MPI segments show their operands; message sizes read
len(buf)*elemsize in source names. Every region and segment has a stable ID.`,
		Example: `  predict model ./examples/heat
  predict model ./examples/heat --func 'run|exchangeHalos'
  predict model --json ./examples/cg > cg-model.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.patterns = args
			return modelRun(streams, opts)
		},
	}
	cmd.Flags().StringVar(&opts.funcs, "func", "", "only functions whose name (as in IDs, e.g. main.run$1) matches this regular expression")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON (schema: docs/model-json.md)")
	cmd.Flags().StringVar(&opts.tags, "tags", "", "build tags for loading the packages")
	return cmd
}

func modelRun(streams *IO, opts *modelOptions) error {
	var re *regexp.Regexp
	if opts.funcs != "" {
		var err error
		if re, err = regexp.Compile(opts.funcs); err != nil {
			return &FlagError{fmt.Errorf("--func: %w", err)}
		}
	}
	cfg := model.Config{}
	if opts.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + opts.tags}
	}
	prog, err := model.Load(cfg, opts.patterns...)
	if err != nil {
		return err
	}
	var funcs []*model.Func
	for _, f := range prog.Funcs {
		if re == nil || re.MatchString(f.Name) {
			funcs = append(funcs, f)
		}
	}
	if re != nil && len(funcs) == 0 {
		return fmt.Errorf("no function matches --func %q", opts.funcs)
	}
	if opts.json {
		out := make([]*model.JSONFunc, len(funcs))
		for i, f := range funcs {
			out[i] = model.ToJSON(f)
		}
		enc := json.NewEncoder(streams.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"functions": out})
	}
	for _, f := range funcs {
		if err := model.WriteTree(streams.Out, f); err != nil {
			return err
		}
	}
	return nil
}
