package commmodel

import (
	"fmt"
	"sort"
)

// Config is a placement configuration: ranks spread over Nodes nodes with
// PPN ranks on each.
type Config struct {
	Nodes int `json:"nodes"`
	PPN   int `json:"ppn"`
}

func (c Config) String() string { return fmt.Sprintf("%dx%d", c.Nodes, c.PPN) }

// CompareOptions tune [Machine.Compare].
type CompareOptions struct {
	Order     Order
	Algorithm string // "" selects by the machine's rules
	Leaders   int    // leaders per node for the leaders all-to-all; 0: the best divisor of ppn (PLP)
	Root      int
}

// PlacementTime is the predicted time of a collective under one placement.
type PlacementTime struct {
	Config      Config  `json:"config"`
	Algorithm   string  `json:"algorithm"`
	Time        float64 `json:"time"`        // simulated, with contention
	Uncontended float64 `json:"uncontended"` // simulated, every channel to itself
	ClosedForm  float64 `json:"closed_form"` // Hockney closed form at the slowest level used; 0 if none
	MaxShare    int     `json:"max_share"`   // most transfers seen sharing a channel
	Messages    int     `json:"messages"`
	Order       int     `json:"order"` // 1 = fastest
}

// Compare predicts op on np ranks with a message of bytes (as [Generate]
// counts them) under each configuration, and orders them: the
// experiment of Peryshkova and Kurnosov (SEEDS.md 4).
func (m *Machine) Compare(op Op, bytes, np int, configs []Config, opt CompareOptions) ([]PlacementTime, error) {
	out := make([]PlacementTime, 0, len(configs))
	for _, c := range configs {
		if c.Nodes*c.PPN < np {
			return nil, fmt.Errorf("commmodel: placement %v holds %d ranks, not %d", c, c.Nodes*c.PPN, np)
		}
		pl, err := m.Place(np, c.Nodes, c.PPN, opt.Order)
		if err != nil {
			return nil, err
		}
		alg := m.Select(op, np, bytes, 0)
		if opt.Algorithm != "" {
			if alg, err = ParseAlgorithm(op, opt.Algorithm); err != nil {
				return nil, err
			}
		}
		leaders := []int{opt.Leaders}
		if alg == Leaders && opt.Leaders == 0 {
			leaders = divisors(pl.NodeRanks()[0])
		}
		var s *Schedule
		var res *SimResult
		name := alg.String()
		for _, d := range leaders {
			sd, err := Generate(op, alg, np, bytes, opt.Root, Options{Placement: pl, Leaders: d})
			if err != nil {
				return nil, err
			}
			rd, err := m.Simulate(sd, pl, SimOptions{})
			if err != nil {
				return nil, err
			}
			if res == nil || rd.Time < res.Time {
				s, res = sd, rd
				if alg == Leaders {
					name = fmt.Sprintf("leaders:%d", max(d, 1))
				}
			}
		}
		free, err := m.Simulate(s, pl, SimOptions{NoContention: true})
		if err != nil {
			return nil, err
		}
		cf, _, _ := m.Hockney(slowestLevel(pl)).ClosedForm(op, alg, np, bytes)
		out = append(out, PlacementTime{Config: c, Algorithm: name, Time: res.Time,
			Uncontended: free.Time, ClosedForm: cf, MaxShare: res.MaxShare, Messages: res.Messages})
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return out[idx[a]].Time < out[idx[b]].Time })
	for rank, i := range idx {
		out[i].Order = rank + 1
	}
	return out, nil
}

// divisors lists the divisors of the number of ranks on a node: the
// leader counts PLP chooses from (SEEDS.md 5).
func divisors(node []int) []int {
	var out []int
	for d := 1; d <= len(node); d++ {
		if len(node)%d == 0 {
			out = append(out, d)
		}
	}
	return out
}

// slowestLevel is the farthest level between any two ranks of pl.
func slowestLevel(pl *Placement) Level {
	l := Self
	for r := 1; r < pl.P; r++ {
		l = max(l, LevelOf(pl, 0, r))
	}
	if l == Socket && pl.P > 1 {
		for r := 1; r < pl.P; r++ {
			l = max(l, LevelOf(pl, r-1, r))
		}
	}
	if l == Self {
		return Socket
	}
	return l
}

// Estimate is the fast path: the closed-form time of op with the
// algorithm the rules select, at the slowest level of pl. ok is false
// when the algorithm has no closed form.
func (m *Machine) Estimate(op Op, pl *Placement, bytes int) (t float64, ok bool) {
	alg := m.Select(op, pl.P, bytes, 0)
	t, _, ok = m.Hockney(slowestLevel(pl)).ClosedForm(op, alg, pl.P, bytes)
	return t, ok
}
