package report

import (
	"fmt"
	"math"
	"sort"
)

// Config is one process configuration: P ranks on Nodes nodes, PPN ranks per
// node. Nodes and PPN may be 0 when the caller does not know the placement
// (a plain local run); they then print as "-".
type Config struct {
	P     int `json:"p"`
	Nodes int `json:"nodes"`
	PPN   int `json:"ppn"`
}

// String formats the configuration as "P (nodes x ppn)".
func (c Config) String() string {
	return fmt.Sprintf("%d (%s)", c.P, c.Layout())
}

// Layout formats the placement as "nodes x ppn", or "-" when unknown.
func (c Config) Layout() string {
	if c.Nodes == 0 && c.PPN == 0 {
		return "-"
	}
	return fmt.Sprintf("%dx%d", c.Nodes, c.PPN)
}

// less orders configurations by P, then PPN, then Nodes, which is the order
// of every table and plot.
func (c Config) less(d Config) bool {
	if c.P != d.P {
		return c.P < d.P
	}
	if c.PPN != d.PPN {
		return c.PPN < d.PPN
	}
	return c.Nodes < d.Nodes
}

// Point is one predicted (or measured) run: its configuration, its time in
// seconds and, when the model estimates it, Serial: the seconds of the part
// of the run that does not get faster with P.
type Point struct {
	Config
	Time   float64  `json:"time"`
	Serial *float64 `json:"serial,omitempty"`
}

// Sweep is a set of points for one program, machine and argument list. It
// carries no date so that identical inputs give byte-identical outputs.
type Sweep struct {
	Program string   `json:"program"`
	Machine string   `json:"machine"`
	Args    []string `json:"args,omitempty"`
	Points  []Point  `json:"points"`
}

// checkPoints validates points and returns them sorted by configuration.
// what names the list in error messages ("sweep", "actual", ...).
func checkPoints(what string, pts []Point) ([]Point, error) {
	if len(pts) == 0 {
		return nil, fmt.Errorf("report: %s has no points", what)
	}
	out := append([]Point(nil), pts...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].less(out[j].Config) })
	for i, p := range out {
		switch {
		case p.P < 1:
			return nil, fmt.Errorf("report: %s has a point with P = %d, want >= 1", what, p.P)
		case p.Nodes < 0 || p.PPN < 0:
			return nil, fmt.Errorf("report: %s point P=%d: negative placement %s", what, p.P, p.Layout())
		case p.Nodes > 0 && p.PPN > 0 && p.Nodes*p.PPN < p.P:
			return nil, fmt.Errorf("report: %s point P=%d: %d nodes x %d ppn hold only %d ranks", what, p.P, p.Nodes, p.PPN, p.Nodes*p.PPN)
		case !(p.Time > 0) || math.IsInf(p.Time, 0):
			return nil, fmt.Errorf("report: %s point %s: time %v s, want a positive finite number", what, p.Config, p.Time)
		case p.Serial != nil && (!(*p.Serial >= 0) || *p.Serial > p.Time):
			return nil, fmt.Errorf("report: %s point %s: serial time %v s outside [0, %v]", what, p.Config, *p.Serial, p.Time)
		}
		if i > 0 && out[i-1].Config == p.Config {
			return nil, fmt.Errorf("report: %s has two points for %s", what, p.Config)
		}
	}
	return out, nil
}
