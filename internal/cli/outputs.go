package cli

import (
	"fmt"
	"os"

	"github.com/parpredict/parpredict/internal/atomicfile"
	"github.com/parpredict/parpredict/plots"
)

// output is a file a command will write, named by the flag that gave it.
type output struct {
	flag, path string
	plot       bool // a plot: its extension must name a format plots writes
	keep       bool // written only when missing (a profile file to reuse)
}

// checkOutputs checks, before a command's long work, that each of its
// output files can be written where it was asked for: a mistyped
// directory or a .gif plot is reported in a second, not after a
// calibration or a sweep.
func checkOutputs(outs ...output) error {
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if o.keep {
			if _, err := os.Stat(o.path); err == nil {
				continue
			}
		}
		if o.plot {
			if err := plots.CheckFormat(o.path); err != nil {
				return &FlagError{fmt.Errorf("%s: %w", o.flag, err)}
			}
		}
		if err := atomicfile.CheckWritable(o.path); err != nil {
			return &FlagError{fmt.Errorf("%s %s: %w", o.flag, o.path, err)}
		}
	}
	return nil
}
