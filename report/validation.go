package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ValidationRow compares one configuration's measured and predicted times.
type ValidationRow struct {
	Config
	Actual    float64 `json:"actual"`
	Predicted float64 `json:"predicted"`
	// Diff is Predicted - Actual; AbsDiff its magnitude; RelErr = AbsDiff /
	// Actual.
	Diff    float64 `json:"diff"`
	AbsDiff float64 `json:"abs_diff"`
	RelErr  float64 `json:"rel_err"`
	// Speedups against the P = 1 row of each side; 0 when there is no P = 1
	// row.
	ActualSpeedup    float64 `json:"actual_speedup"`
	PredictedSpeedup float64 `json:"predicted_speedup"`
	// Runs are all the measured times of this configuration when Actual is
	// the fastest of several (set by the caller); their spread tells how
	// much the machine disturbed the runs.
	Runs []float64 `json:"runs,omitempty"`
}

// Spread is (slowest - fastest) / fastest of the row's runs, 0 with fewer
// than two.
func (r ValidationRow) Spread() float64 {
	if len(r.Runs) < 2 {
		return 0
	}
	return (slices.Max(r.Runs) - slices.Min(r.Runs)) / slices.Min(r.Runs)
}

// noisySpread is the spread of a configuration's runs above which the
// validation's text says that the machine, not only the model, may be
// behind errors of that size: twice driftTolerance.
const noisySpread = 2 * driftTolerance

// NoisiestRow is the row whose runs spread the most, and that spread; ok
// is false when no row has several runs.
func (r *ValidationReport) NoisiestRow() (row ValidationRow, spread float64, ok bool) {
	for _, x := range r.Rows {
		if len(x.Runs) > 1 && (!ok || x.Spread() > spread) {
			row, spread, ok = x, x.Spread(), true
		}
	}
	return row, spread, ok
}

// describeNoise says, when some configuration's runs spread by more than
// noisySpread, how much, and what that means for the errors; "" otherwise.
func (r *ValidationReport) describeNoise() string {
	row, spread, ok := r.NoisiestRow()
	if !ok || spread <= noisySpread {
		return ""
	}
	return fmt.Sprintf("noise: the %d runs at P = %d spread by %s (slowest over fastest): the machine's speed moved that much between runs of one configuration, so errors of that order can be the machine's rather than the model's; validate at a quieter time, or with more --reps", len(row.Runs), row.P, percent(spread))
}

// ValidationReport is the comparison of a real run sweep with predictions.
type ValidationReport struct {
	Program    string          `json:"program"`
	Machine    string          `json:"machine"`
	Args       []string        `json:"args,omitempty"`
	Rows       []ValidationRow `json:"rows"`
	MaxRelErr  float64         `json:"max_rel_err"`
	MeanRelErr float64         `json:"mean_rel_err"`
	// WorstP is the P of the largest relative error.
	WorstP int `json:"worst_p"`
	// Drift compares the machine's speed during the real runs with its
	// speed when the profile was made (set by the caller); nil when the
	// two cannot be compared.
	Drift *MachineDrift `json:"machine_drift,omitempty"`
	// Reprofiled is set when the profile was made again after the real
	// runs, because the machine's speed in them had moved this far from
	// the first profile's (Drift then compares with the new one).
	Reprofiled *MachineDrift `json:"reprofiled_after,omitempty"`
	// Mismatch is set when the machine file was calibrated on another
	// computer than the one the real runs ran on (set by the caller).
	Mismatch *MachineMismatch `json:"machine_mismatch,omitempty"`
	// Stale is set when a ping-pong measured before the runs differs from
	// the machine file's by half or more (set by the caller).
	Stale *MachineStale `json:"machine_stale,omitempty"`
	// Failed lists the configurations that ran but whose prediction
	// failed (a deadlock the real run escaped, say; set by the caller).
	Failed []ValidationFailure `json:"failed,omitempty"`
	Caveats
}

// ValidationFailure is a configuration that ran for real but could not be
// predicted: its fastest run and why.
type ValidationFailure struct {
	Config
	Actual float64 `json:"actual"`
	Error  string  `json:"error"`
}

// MachineDrift compares the program's speed during a validation's real
// runs with its speed when it was profiled: the same program built
// without probes, the same arguments and rank count, the ranks' bodies
// timed from each run's trace, the fastest run of each side. A machine
// that slowed down or sped up between the two (other processes, a
// neighbour on a shared host, the caches' state) moves every predicted
// time's error by about as much, whatever the model.
type MachineDrift struct {
	P        int     `json:"p"`          // the rank count compared
	Profiled float64 `json:"profiled_s"` // ranks' bodies, summed, when profiled
	Measured float64 `json:"measured_s"` // the same in the validation's runs
	Ratio    float64 `json:"ratio"`      // Measured / Profiled
}

// driftTolerance is the change of the machine's speed below which the
// validation's text calls the machine unchanged: the spread of repeated
// fastest runs on a quiet machine.
const driftTolerance = 0.05

// Describe says in one sentence how the machine's speed compares.
func (d *MachineDrift) Describe() string {
	head := fmt.Sprintf("machine: the ranks' bodies at P = %d took %s s in these runs, %s s when profiled", d.P, secs(d.Measured), secs(d.Profiled))
	change := d.Ratio - 1
	switch {
	case math.Abs(change) <= driftTolerance:
		return head + fmt.Sprintf(" (%s: the machine ran as fast as then)", signedPercent(change))
	case change > 0:
		return head + fmt.Sprintf(" (%s slower: the machine slowed down since the profile, and every error includes that; profile again just before validating)", percent(change))
	default:
		return head + fmt.Sprintf(" (%s faster: the machine sped up since the profile, and every error includes that; profile again just before validating)", percent(-change))
	}
}

// DescribeReprofile says in one sentence why the profile was made again
// after the runs: the drift d against the first profile.
func (d *MachineDrift) DescribeReprofile() string {
	how := "slower"
	if d.Ratio < 1 {
		how = "faster"
	}
	return fmt.Sprintf("profile: made again after the runs and predicted with: the ranks' bodies at P = %d took %s s in the runs, %s s when first profiled (%s %s; --reprofile sets how much is tolerated)",
		d.P, secs(d.Measured), secs(d.Profiled), percent(math.Abs(d.Ratio-1)), how)
}

// signedPercent formats a fraction as a percentage with its sign.
func signedPercent(x float64) string {
	if x < 0 {
		return "-" + percent(-x)
	}
	return "+" + percent(x)
}

// Validation pairs actual and predicted points by configuration; each side
// must have exactly the configurations of the other. The metadata comes from
// predicted.
func Validation(actual, predicted Sweep) (*ValidationReport, error) {
	act, err := checkPoints("actual", actual.Points)
	if err != nil {
		return nil, err
	}
	pred, err := checkPoints("predicted", predicted.Points)
	if err != nil {
		return nil, err
	}
	byCfg := make(map[Config]Point, len(pred))
	for _, p := range pred {
		byCfg[p.Config] = p
	}
	r := &ValidationReport{Program: predicted.Program, Machine: predicted.Machine, Args: predicted.Args}
	for _, a := range act {
		p, ok := byCfg[a.Config]
		if !ok {
			return nil, fmt.Errorf("report: no prediction for the actual run at P = %s", a.Config)
		}
		delete(byCfg, a.Config)
		d := p.Time - a.Time
		r.Rows = append(r.Rows, ValidationRow{Config: a.Config, Actual: a.Time, Predicted: p.Time,
			Diff: d, AbsDiff: math.Abs(d), RelErr: math.Abs(d) / a.Time})
	}
	for _, p := range pred {
		if _, ok := byCfg[p.Config]; ok {
			return nil, fmt.Errorf("report: no actual run for the prediction at P = %s", p.Config)
		}
	}
	if r.Rows[0].P == 1 {
		a1, p1 := r.Rows[0].Actual, r.Rows[0].Predicted
		for i := range r.Rows {
			r.Rows[i].ActualSpeedup = a1 / r.Rows[i].Actual
			r.Rows[i].PredictedSpeedup = p1 / r.Rows[i].Predicted
		}
	}
	var sum float64
	for _, row := range r.Rows {
		sum += row.RelErr
		if row.RelErr > r.MaxRelErr || r.WorstP == 0 {
			r.MaxRelErr, r.WorstP = row.RelErr, row.P
		}
	}
	r.MeanRelErr = sum / float64(len(r.Rows))
	return r, nil
}

// percent formats a fraction as a percentage with one decimal.
func percent(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }

// rowError is a row's relative error with the sign of its difference.
func rowError(row ValidationRow) string {
	if row.Diff < 0 {
		return signedPercent(-row.RelErr)
	}
	return signedPercent(row.RelErr)
}

// WriteText writes the comparison table for a terminal.
func (r *ValidationReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "program: %s\nmachine: %s\n", r.Program, r.Machine)
	if len(r.Args) > 0 {
		fmt.Fprintf(&b, "args:    %s\n", strings.Join(r.Args, " "))
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	head := []string{"P", "nodes x ppn", "actual (s)", "predicted (s)", "diff (s)", "error", "actual S", "predicted S"}
	withRuns := slices.ContainsFunc(r.Rows, func(row ValidationRow) bool { return len(row.Runs) > 1 })
	if withRuns {
		head = append(head, "runs", "spread")
	}
	rows := [][]string{head}
	for _, row := range r.Rows {
		as, ps := "-", "-"
		if row.ActualSpeedup > 0 {
			as, ps = fixed(row.ActualSpeedup), fixed(row.PredictedSpeedup)
		}
		// Signed: a prediction short of the run reads -, over it +.
		line := []string{strconv.Itoa(row.P), row.Layout(), secs(row.Actual), secs(row.Predicted),
			secs(row.Diff), rowError(row), as, ps}
		if withRuns {
			line = append(line, strconv.Itoa(len(row.Runs)), percent(row.Spread()))
		}
		rows = append(rows, line)
	}
	if err := table(w, rows); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "\nmean error %s, max error %s (P = %d)\n", percent(r.MeanRelErr), percent(r.MaxRelErr), r.WorstP); err != nil {
		return err
	}
	if r.Reprofiled != nil {
		if _, err := fmt.Fprintln(w, r.Reprofiled.DescribeReprofile()); err != nil {
			return err
		}
	}
	if r.Drift != nil {
		if _, err := fmt.Fprintln(w, r.Drift.Describe()); err != nil {
			return err
		}
	}
	if note := r.describeNoise(); note != "" {
		if _, err := fmt.Fprintln(w, note); err != nil {
			return err
		}
	}
	if r.Mismatch != nil {
		if _, err := fmt.Fprintln(w, r.Mismatch.Describe()); err != nil {
			return err
		}
	}
	if r.Stale != nil {
		if _, err := fmt.Fprintln(w, r.Stale.Describe()); err != nil {
			return err
		}
	}
	for _, f := range r.Failed {
		if _, err := fmt.Fprintf(w, "prediction failed: P = %d (%s), which ran in %s s: %s\n", f.P, f.Layout(), secs(f.Actual), indentLines(f.Error, "  ")); err != nil {
			return err
		}
	}
	return nil
}

// WriteCSV writes one line per configuration with a header.
func (r *ValidationReport) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"p", "nodes", "ppn", "actual_s", "predicted_s", "diff_s", "abs_diff_s", "rel_err", "actual_speedup", "predicted_speedup"})
	for _, row := range r.Rows {
		cw.Write([]string{strconv.Itoa(row.P), strconv.Itoa(row.Nodes), strconv.Itoa(row.PPN), full(row.Actual),
			full(row.Predicted), full(row.Diff), full(row.AbsDiff), full(row.RelErr),
			full(row.ActualSpeedup), full(row.PredictedSpeedup)})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("report: writing CSV: %w", err)
	}
	return nil
}

// WriteJSON writes the whole report as JSON (see docs/report.md).
func (r *ValidationReport) WriteJSON(w io.Writer) error { return writeJSON(w, r) }
