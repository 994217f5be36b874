package cli

import (
	"fmt"

	"github.com/schollz/progressbar/v3"

	"github.com/parpredict/parpredict/report"
)

// reportFormat turns the --csv and --json flags of a command that prints a
// report into its format.
func reportFormat(csv, json bool) (report.Format, error) {
	switch {
	case csv && json:
		return "", &FlagError{fmt.Errorf("--csv and --json exclude each other")}
	case csv:
		return report.CSV, nil
	case json:
		return report.JSON, nil
	}
	return report.Text, nil
}

// sweepProgress returns a progress callback drawing a bar on stderr when
// it is a terminal (nil otherwise, or with quiet) and the function that
// finishes the bar.
func sweepProgress(streams *IO, quiet bool) (func(done, total int, what string), func()) {
	if quiet || !isTerminal(streams.Err) {
		return nil, func() {}
	}
	var bar *progressbar.ProgressBar
	shown := 0
	progress := func(done, total int, what string) {
		switch {
		case bar == nil:
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(streams.Err),
				progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
		case total != shown:
			// A new phase (validate's calibration, then its runs).
			bar.ChangeMax(total)
		}
		shown = total
		bar.Describe(what)
		_ = bar.Set(done)
	}
	return progress, func() {
		if bar != nil {
			_ = bar.Finish()
		}
	}
}

// logTo returns a logger of notes for the user, on stderr.
func logTo(streams *IO) func(format string, a ...any) {
	return func(format string, a ...any) { fmt.Fprintf(streams.Err, "predict: "+format+"\n", a...) }
}
