package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// chromeEvent is one entry of the Chrome trace event format ("X": a complete
// event with a duration; "i": an instant; "M": metadata). Times are in
// microseconds.
type chromeEvent struct {
	Name string            `json:"name"`
	Cat  string            `json:"cat,omitempty"`
	Ph   string            `json:"ph"`
	Ts   float64           `json:"ts"`
	Dur  *float64          `json:"dur,omitempty"`
	Pid  int               `json:"pid"`
	Tid  int               `json:"tid"`
	S    string            `json:"s,omitempty"`
	Args map[string]string `json:"args,omitempty"`
}

type chromeTrace struct {
	TraceEvents     []chromeEvent `json:"traceEvents"`
	DisplayTimeUnit string        `json:"displayTimeUnit"`
}

// WriteChromeTrace writes the timeline in the Chrome trace event format,
// which Perfetto (ui.perfetto.dev) and chrome://tracing open: one thread per
// rank, one slice per segment (named after the MPI op or "compute"), an
// instant per interval mark. Times count from the timeline's origin.
func (t *Timeline) WriteChromeTrace(w io.Writer) error {
	if err := t.Check(); err != nil {
		return err
	}
	origin := t.Origin()
	us := func(x float64) float64 { return math.Round((x-origin)*1e9) / 1e3 }
	name := t.Program
	if name == "" {
		name = "run"
	}
	tr := chromeTrace{DisplayTimeUnit: "ms", TraceEvents: []chromeEvent{
		{Name: "process_name", Ph: "M", Args: map[string]string{"name": name}},
	}}
	for _, r := range t.Ranks {
		tr.TraceEvents = append(tr.TraceEvents, chromeEvent{Name: "thread_name", Ph: "M", Tid: r.Rank,
			Args: map[string]string{"name": "rank " + strconv.Itoa(r.Rank)}})
	}
	for _, r := range t.Ranks {
		for _, s := range r.Segments {
			d := us(s.End) - us(s.Start)
			e := chromeEvent{Name: s.Op, Cat: s.Kind.String(), Ph: "X", Ts: us(s.Start), Dur: &d, Tid: r.Rank, Args: segmentArgs(s)}
			if s.Kind == KindCompute {
				e.Name = "compute"
				if s.Serial {
					e.Name = "serial compute"
				}
			} else if s.Kind == KindWait {
				e.Name = "wait " + s.Op
			}
			tr.TraceEvents = append(tr.TraceEvents, e)
		}
		for _, m := range r.Marks {
			ph := "end"
			if m.Begin {
				ph = "begin"
			}
			tr.TraceEvents = append(tr.TraceEvents, chromeEvent{Name: fmt.Sprintf("interval %d %s", m.ID, ph),
				Cat: "interval", Ph: "i", S: "t", Ts: us(m.Time), Tid: r.Rank, Args: map[string]string{"site": m.Site}})
		}
	}
	return writeJSON(w, tr)
}

func segmentArgs(s Segment) map[string]string {
	a := map[string]string{}
	if s.Site != "" {
		a["site"] = s.Site
	}
	for k, v := range map[string]int{"dest": s.Dest, "source": s.Source, "root": s.Root, "tag": s.Tag} {
		if v >= 0 {
			a[k] = strconv.Itoa(v)
		}
	}
	if s.Bytes > 0 {
		a["bytes"] = strconv.Itoa(s.Bytes)
	}
	if s.Req > 0 {
		a["req"] = strconv.Itoa(s.Req)
	}
	if s.Comm > 0 {
		a["comm"] = strconv.Itoa(s.Comm)
	}
	if len(a) == 0 {
		return nil
	}
	return a
}
