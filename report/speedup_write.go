package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteText writes the speedup table and its summary for a terminal.
func (r *SpeedupReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "program: %s\nmachine: %s\n", r.Program, r.Machine)
	if len(r.Args) > 0 {
		fmt.Fprintf(&b, "args:    %s\n", strings.Join(r.Args, " "))
	}
	fmt.Fprintf(&b, "serial fraction f = %s (%s)\n", strconv.FormatFloat(r.F, 'f', 4, 64), fSourceText(r.FSource))
	if r.base() > 1 {
		fmt.Fprintf(&b, "speedup:  against P = %d, the fewest ranks predicted (the sweep has no P = 1 point)\n", r.base())
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	multi := r.SweptPPN
	rows := [][]string{{"P", "nodes x ppn", "time (s)", "speedup", "efficiency", "Amdahl", "Gustafson", "Karp-Flatt"}}
	for _, row := range r.Rows {
		kf := "-"
		if row.KarpFlatt != nil {
			kf = strconv.FormatFloat(*row.KarpFlatt, 'f', 4, 64)
		}
		layout := row.Layout()
		if multi && row.BestPPN {
			layout = "*" + layout
		}
		rows = append(rows, []string{strconv.Itoa(row.P), layout, secs(row.Time), fixed(row.Speedup),
			fixed(row.Efficiency), fixed(row.Amdahl), fixed(row.Gustafson), kf})
	}
	if err := table(w, rows); err != nil {
		return err
	}
	b.Reset()
	if multi {
		b.WriteString("(* fastest placement for this P)\n")
	}
	fmt.Fprintf(&b, "\noptimum: P = %d (%s), %s s\n", r.Optimal.P, r.Optimal.Layout(), secs(r.OptimalTime))
	writeScaling(&b, "", r.Overall, r.Threshold)
	for _, sc := range r.PerPPN {
		writeScaling(&b, fmt.Sprintf("ppn %d: ", sc.PPN), sc, r.Threshold)
	}
	if len(r.Failed) > 0 {
		b.WriteString("\n")
	}
	for _, f := range r.Failed {
		fmt.Fprintf(&b, "failed: P = %d (%s): %s\n", f.P, f.Layout(), indentLines(f.Error, "  "))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if r.PerRank != nil {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
		return r.PerRank.WriteText(w)
	}
	return nil
}

// indentLines indents every line of s after the first.
func indentLines(s, indent string) string {
	return strings.ReplaceAll(s, "\n", "\n"+indent)
}

func fSourceText(src string) string {
	switch src {
	case FromModel:
		return "estimated by the model: serial time / T(1)"
	case FromFit:
		return "fitted to the predicted speedups by least squares on Amdahl's law"
	default:
		return "no serial time and no P > 1 point to fit"
	}
}

func writeScaling(b *strings.Builder, prefix string, sc Scaling, th float64) {
	switch {
	case len(sc.Dips) > 0:
		end := "the largest swept"
		if sc.BelowAt != 0 {
			end = fmt.Sprintf("efficiency < %s from P = %d", fixed(th), sc.BelowAt)
		}
		ps := make([]string, len(sc.Dips))
		for i, p := range sc.Dips {
			ps[i] = strconv.Itoa(p)
		}
		fmt.Fprintf(b, "%sscalability range: up to P = %d (%s), with efficiency < %s before it at P = %s\n", prefix, sc.RangeEnd, end, fixed(th), strings.Join(ps, ", "))
	case sc.BelowAt == 0:
		fmt.Fprintf(b, "%sscalability range: efficiency stays >= %s up to P = %d (the largest swept)\n", prefix, fixed(th), sc.RangeEnd)
	case sc.RangeEnd == 0:
		fmt.Fprintf(b, "%sscalability range: empty, efficiency < %s already at P = %d\n", prefix, fixed(th), sc.BelowAt)
	default:
		fmt.Fprintf(b, "%sscalability range: up to P = %d (efficiency < %s from P = %d)\n", prefix, sc.RangeEnd, fixed(th), sc.BelowAt)
	}
	if sc.Falls {
		fmt.Fprintf(b, "%sspeedup peaks at P = %d (%s) and falls after it\n", prefix, sc.PeakP, fixed(sc.PeakSpeedup))
	} else {
		fmt.Fprintf(b, "%sspeedup is highest at P = %d (%s)\n", prefix, sc.PeakP, fixed(sc.PeakSpeedup))
	}
}

// WriteCSV writes one line per row with a header; floats at full precision.
func (r *SpeedupReport) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"p", "nodes", "ppn", "time_s", "speedup", "efficiency", "amdahl", "gustafson", "karp_flatt", "best_ppn", "f", "f_source", "base_p"})
	for _, row := range r.Rows {
		kf := ""
		if row.KarpFlatt != nil {
			kf = full(*row.KarpFlatt)
		}
		cw.Write([]string{strconv.Itoa(row.P), strconv.Itoa(row.Nodes), strconv.Itoa(row.PPN), full(row.Time),
			full(row.Speedup), full(row.Efficiency), full(row.Amdahl), full(row.Gustafson), kf,
			strconv.FormatBool(row.BestPPN), full(r.F), r.FSource, strconv.Itoa(r.base())})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("report: writing CSV: %w", err)
	}
	return nil
}

// WriteJSON writes the whole report as JSON (see docs/report.md).
func (r *SpeedupReport) WriteJSON(w io.Writer) error { return writeJSON(w, r) }
