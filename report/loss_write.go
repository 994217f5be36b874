package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteText writes, for the whole run and each interval, the summary, the
// comparative table, the per-rank table and the call site table.
func (r *LossReport) WriteText(w io.Writer) error {
	var b strings.Builder
	if r.Program != "" {
		fmt.Fprintf(&b, "program: %s\n", r.Program)
	}
	if r.Machine != "" {
		fmt.Fprintf(&b, "machine: %s\n", r.Machine)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if err := r.Whole.writeText(w); err != nil {
		return err
	}
	for i := range r.Intervals {
		if err := r.Intervals[i].writeText(w); err != nil {
			return err
		}
	}
	return nil
}

func (l *Loss) writeText(w io.Writer) error {
	title := "whole program"
	if l.Interval != 0 {
		title = "interval " + strconv.Itoa(l.Interval)
	}
	_, err := fmt.Fprintf(w, "\n== %s ==\nprocessors %d, execution time %s s, total time %s s\nproductive %s s, lost %s s, parallelization efficiency %s\n\n",
		title, l.Processors, secs(l.ExecutionTime), secs(l.TotalTime), secs(l.ProductiveTime), secs(l.LostTime), fixed(l.Efficiency))
	if err != nil {
		return err
	}
	rows := [][]string{{"characteristic (s)", "min", "rank", "max", "rank", "mean"}}
	for _, s := range l.Comparative {
		rows = append(rows, []string{s.Name, secs(s.Min), strconv.Itoa(s.MinRank), secs(s.Max), strconv.Itoa(s.MaxRank), secs(s.Mean)})
	}
	if err := table(w, rows); err != nil {
		return err
	}
	rows = [][]string{{"rank", "execution", "productive", "lost", "comm", "idle", "insuff par", "imbalance", "real sync", "pot sync", "time var", "overlap", "calls"}}
	for _, r := range l.Ranks {
		rows = append(rows, []string{strconv.Itoa(r.Rank), secs(r.Execution), secs(r.Productive), secs(r.Lost),
			secs(r.Communications), secs(r.Idle), secs(r.InsufficientPar), secs(r.LoadImbalance),
			secs(r.RealSync), secs(r.PotentialSync), secs(r.TimeVariation), secs(r.Overlap),
			strconv.Itoa(r.SendRecvCalls + r.CollectiveCalls + r.SystemCalls)})
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	if err := table(w, rows); err != nil {
		return err
	}
	if len(l.Sites) == 0 {
		return nil
	}
	rows = [][]string{{"site", "op", "count", "time", "real sync", "pot sync", "time var", "overlap"}}
	for _, s := range l.Sites {
		rows = append(rows, []string{s.Site, s.Op, strconv.Itoa(s.Count), secs(s.Time), secs(s.RealSync),
			secs(s.PotentialSync), secs(s.TimeVariation), secs(s.Overlap)})
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	return table(w, rows)
}

// WriteJSON writes the whole report as JSON (see docs/report.md).
func (r *LossReport) WriteJSON(w io.Writer) error { return writeJSON(w, r) }
