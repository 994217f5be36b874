package profiler

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// Hottest returns the n timed regions of the profiled run with the
// largest own time, largest first (ties by ID); regions it never reached,
// whose numbers come from a contention run (Ranks), are not among them.
func (p *Profile) Hottest(n int) []Region {
	var rs []Region
	for _, r := range p.Regions {
		if r.Timed && r.Ranks == 0 {
			rs = append(rs, r)
		}
	}
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].OwnNs != rs[j].OwnNs {
			return rs[i].OwnNs > rs[j].OwnNs
		}
		return rs[i].ID < rs[j].ID
	})
	if len(rs) > n {
		rs = rs[:n]
	}
	return rs
}

// WriteSummary prints the totals and the n hottest regions.
func (p *Profile) WriteSummary(w io.Writer, n int) error {
	t := p.Totals
	fmt.Fprintf(w, "%s  np=%d  args=%q\n", p.Meta.Package, p.Meta.NP, p.Meta.Args)
	fmt.Fprintf(w, "regions: %d timed, %d counted; probe cost %.0f ns per timer, %.1f ns per untimed call\n",
		t.TimedRegions, t.CountedRegion, p.Meta.ProbeCost.TimerNs, p.Meta.ProbeCost.UntimedNs)
	fmt.Fprintf(w, "main %v, own times %v + MPI %v = %v", dur(t.MainNs), dur(t.OwnNs), dur(t.MPINs), dur(t.AccountedNs))
	if t.BaselineMainNs > 0 {
		fmt.Fprintf(w, "\nuninstrumented run: main %v (%+.1f %% against own + MPI), process %v (instrumented %v: overhead %.2fx)",
			dur(t.BaselineMainNs), 100*(t.AccountedNs-t.BaselineMainNs)/t.BaselineMainNs, dur(t.BaselineNs), dur(t.WallNs), t.Overhead)
	}
	if t.PlainBodyNs > 0 {
		fmt.Fprintf(w, "\nwithout probes: ranks' bodies %v (%+.1f %% against own + MPI)",
			dur(t.PlainBodyNs), 100*(t.AccountedNs-t.PlainBodyNs)/t.PlainBodyNs)
	}
	fmt.Fprintln(w)
	if filled := p.filledRegions(); filled > 0 {
		fmt.Fprintf(w, "%d regions the profiled run never reached have the numbers of the contention runs that did (code that runs only with more ranks)\n", filled)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "region\town\t%\texecs\tper exec\tnote")
	for _, r := range p.Hottest(n) {
		share := 0.0
		if t.AccountedNs > 0 {
			share = 100 * r.OwnNs / t.AccountedNs
		}
		note := ""
		if r.Imbalance != nil {
			state := "balanced"
			if !r.Imbalance.Balanced {
				state = "unbalanced"
			}
			note = fmt.Sprintf("%s (D/Tmean %.2f)", state, r.Imbalance.Ratio)
		}
		if r.Kind == Loop && r.Iters > 0 {
			note = fmt.Sprintf("%d iters, %.1f ns/iter %s", r.Iters, r.OwnPerIterNs, note)
		}
		if r.OwnNs < 0 {
			// Own time is what is left after the timed children and the
			// probes' calibrated costs; their probes cost less here.
			note = strings.TrimSpace(note + " below zero: the probes inside cost less than calibrated (counted as 0)")
		}
		fmt.Fprintf(tw, "%s\t%v\t%.1f\t%d\t%v\t%s\n", r.ID, dur(r.OwnNs), share, r.Execs, dur(r.OwnPerExecNs), note)
	}
	return tw.Flush()
}

// filledRegions counts the regions whose numbers come from a contention
// run (Ranks).
func (p *Profile) filledRegions() int {
	n := 0
	for _, r := range p.Regions {
		if r.Ranks > 0 {
			n++
		}
	}
	return n
}

func dur(ns float64) time.Duration {
	d := time.Duration(ns)
	switch {
	case d > time.Second:
		return d.Round(time.Millisecond)
	case d > time.Millisecond:
		return d.Round(time.Microsecond)
	case d > time.Microsecond:
		return d.Round(10 * time.Nanosecond)
	}
	return d
}
