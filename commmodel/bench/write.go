package bench

import (
	"bytes"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/parpredict/parpredict/commmodel"
	"go.yaml.in/yaml/v3"
)

// MarshalMachine writes m in the machine-file format, checking that the
// result loads back.
func MarshalMachine(m *commmodel.Machine, header string) ([]byte, error) {
	var buf bytes.Buffer
	for _, line := range bytes.Split([]byte(header), []byte("\n")) {
		if len(line) > 0 {
			fmt.Fprintf(&buf, "# %s\n", line)
		}
	}
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if _, err := commmodel.Parse(m.Name+".yaml", buf.Bytes()); err != nil {
		return nil, fmt.Errorf("bench: the machine written does not load back: %w", err)
	}
	return buf.Bytes(), nil
}

// WriteReport prints the report's tables with the MPIPerf columns: the
// varied parameter, launches (total, valid, after trimming), mean, standard
// error, min, max, absolute error at 95 % and the confidence intervals.
func WriteReport(w io.Writer, rep *Report) error {
	fmt.Fprintf(w, "predict bench: %s, %s, %d cores, %s, %s\n", rep.Date, rep.CPU, rep.Cores, rep.Go, rep.Backend)
	fmt.Fprintf(w, "%d ranks on %d host(s); clock sync min RTT %.3g s; timestamp broadcast bound %.3g s; %.1f s in all\n", rep.Ranks, rep.Hosts, rep.ClockRTT, rep.BcastTime, rep.Seconds)
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\top\tbytes\tranks\tcf\tlaunches\tvalid\ttrimmed\tmean (s)\tSE (s)\tmin (s)\tmax (s)\tE95 (s)\tCI90 (s)\tCI95 (s)\tCI99 (s)\tratio\texpected/predicted (s)\t")
	for _, r := range rep.Rows {
		ci := []string{"-", "-", "-"}
		for i, h := range r.CI {
			ci[i] = fmt.Sprintf("±%.3g", h)
		}
		extra := "-"
		switch {
		case r.Kind == "timer":
			extra = fmt.Sprintf("%.3g", r.Expected)
		case r.Kind == "noise":
			extra = fmt.Sprintf("%.4g detours/s over %.2g s", r.Rate, r.Threshold)
		case r.Predicted > 0:
			extra = fmt.Sprintf("%.3g", r.Predicted)
		}
		ratio := "-"
		if r.Ratio > 0 {
			ratio = fmt.Sprintf("%.3f", r.Ratio)
		}
		cf := "-"
		if r.CF > 0 {
			cf = fmt.Sprint(r.CF)
		}
		label := r.Label
		if r.Rounds > 1 {
			label = fmt.Sprintf("%s x%d", r.Label, r.Rounds)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t%d\t%d\t%.4g\t%.2g\t%.4g\t%.4g\t%.2g\t%s\t%s\t%s\t%s\t%s\t\n",
			r.Kind, label, r.Bytes, r.Ranks, cf, r.Launches, r.Valid, r.Trimmed, r.Mean, r.SE, r.Min, r.Max, r.AbsErr,
			ci[0], ci[1], ci[2], ratio, extra)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nPingPong xN: each launch made N round trips back to back; its times are per round trip.")
	fmt.Fprintln(w, "\nping-pong fit (one-way time = latency + bytes/bandwidth):")
	for _, l := range rep.Fit {
		fmt.Fprintf(w, "  from %s: latency %.3g s, bandwidth %.3g B/s\n", commmodel.FormatSize(l.From), l.Latency, l.Bandwidth)
	}
	return nil
}
