package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Version is the release version; builds from a checkout report "devel".
var Version = "devel"

func init() { register(newVersionCmd) }

func newVersionCmd(streams *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print predict's version and the Go toolchain it was built with",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			rev := ""
			if info, ok := debug.ReadBuildInfo(); ok {
				for _, s := range info.Settings {
					if s.Key == "vcs.revision" {
						rev = " (" + s.Value + ")"
					}
				}
			}
			fmt.Fprintf(streams.Out, "predict %s%s %s %s/%s\n", Version, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
