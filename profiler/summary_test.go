package profiler

import (
	"strings"
	"testing"
)

// The summary lists the hottest regions; an own time below zero (the
// probes inside cost less than calibrated) says so instead of standing
// as a time.
func TestSummaryNotesNegativeOwnTimes(t *testing.T) {
	p := &Profile{Meta: Meta{Package: "example.com/p", NP: 1},
		Totals: Totals{MainNs: 1e6, OwnNs: 1e6, AccountedNs: 1e6},
		Regions: []Region{
			{ID: "main.work:loop@p.go:+1:2", Kind: Loop, Timed: true, Execs: 1, Iters: 10, OwnNs: 1.2e6, OwnPerExecNs: 1.2e6, OwnPerIterNs: 1.2e5},
			{ID: "main.work:seq@p.go:+0:1", Kind: FuncBody, Timed: true, Execs: 10, OwnNs: -2e5, OwnPerExecNs: -2e4},
		}}
	var b strings.Builder
	if err := p.WriteSummary(&b, 10); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	var loop, body string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "main.work:loop"):
			loop = l
		case strings.HasPrefix(l, "main.work:seq"):
			body = l
		}
	}
	if !strings.Contains(loop, "10 iters") || strings.Contains(loop, "below zero") {
		t.Errorf("loop line %q: want its iterations and no note", loop)
	}
	if !strings.Contains(body, "below zero") {
		t.Errorf("body line %q: want the below-zero note", body)
	}
}

// Regions the profiled run never reached, filled from a contention run,
// are not among the hottest (their time is another run's), and the
// summary says how many there are.
func TestSummaryLeavesOutFilledRegions(t *testing.T) {
	p := &Profile{Meta: Meta{Package: "example.com/p", NP: 1},
		Totals: Totals{MainNs: 1e6, OwnNs: 1e6, AccountedNs: 1e6},
		Regions: []Region{
			{ID: "main.work:loop@p.go:+1:2", Kind: Loop, Timed: true, Execs: 1, Iters: 10, OwnNs: 1e6},
			{ID: "main.merge:loop@p.go:+9:2", Kind: Loop, Timed: true, Execs: 2, Iters: 20, OwnNs: 5e6, Ranks: 2},
		}}
	var b strings.Builder
	if err := p.WriteSummary(&b, 10); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, "main.merge") || !strings.Contains(out, "1 regions the profiled run never reached") {
		t.Errorf("summary:\n%s", out)
	}
}
