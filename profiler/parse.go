package profiler

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Parse reads a profile from data (name is the file, for messages) and
// checks that its numbers make sense, so that a damaged or hand-edited
// file is refused with the field at fault rather than predicting
// nonsense.
func Parse(name string, data []byte) (*Profile, error) {
	var p Profile
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("profiler: %s: %w; profile the program again (predict profile)", position(name, data, err), err)
	}
	if p.Format != Format {
		return nil, fmt.Errorf("profiler: %s: not a profile (format %q)", name, p.Format)
	}
	if p.Version != Version {
		return nil, fmt.Errorf("profiler: %s: profile version %d, this predict reads version %d; profile again", name, p.Version, Version)
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("profiler: %s: %w; profile the program again (predict profile)", name, err)
	}
	p.reindex()
	return &p, nil
}

// position is name:line:col of a JSON error's offset, or name.
func position(name string, data []byte, err error) string {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return name
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return fmt.Sprintf("%s:%d:%d", name, line, col)
}

// check validates the numbers a prediction relies on.
func (p *Profile) check() error {
	if p.Meta.NP < 0 {
		return fmt.Errorf("meta.np %d is negative", p.Meta.NP)
	}
	seen := make(map[string]bool, len(p.Regions))
	for i := range p.Regions {
		r := &p.Regions[i]
		at := fmt.Sprintf("regions[%d] (%s)", i, r.ID)
		switch {
		case r.ID == "":
			return fmt.Errorf("regions[%d] has no id", i)
		case seen[r.ID]:
			return fmt.Errorf("%s: the id appears twice", at)
		case !r.Kind.known():
			return fmt.Errorf("%s: unknown kind %q", at, r.Kind)
		case r.Execs < 0 || r.Iters < 0:
			return fmt.Errorf("%s: negative execs or iters", at)
		case r.TotalNs < 0 || r.MPINs < 0:
			return fmt.Errorf("%s: negative totalNs or mpiNs", at)
		case r.Prob != nil && !(*r.Prob >= 0 && *r.Prob <= 1):
			return fmt.Errorf("%s: prob %g is not between 0 and 1", at, *r.Prob)
		}
		seen[r.ID] = true
		if t := r.Trips; t != nil && !t.valid() {
			return fmt.Errorf("%s: trips %+v: %s", at, *t, tripsWant)
		}
		for k, t := range r.RankTrips {
			if !t.valid() {
				return fmt.Errorf("%s: rankTrips[%d] %+v: %s", at, k, t, tripsWant)
			}
		}
		if im := r.Imbalance; im != nil {
			if im.TMeanNs < 0 || im.DNs < 0 {
				return fmt.Errorf("%s: imbalance: negative tMeanNs or dNs", at)
			}
			for k, t := range im.IterNs {
				if t < 0 {
					return fmt.Errorf("%s: imbalance.iterNs[%d] = %g", at, k, t)
				}
			}
		}
	}
	for i, s := range p.MPI {
		if s.Calls < 0 || s.TotalNs < 0 {
			return fmt.Errorf("mpi[%d] (%s): negative calls or totalNs", i, s.Site)
		}
	}
	if c := p.Contention; c != nil {
		if len(c.Total) != len(c.PPN) {
			return fmt.Errorf("contention: %d totals for %d ppn", len(c.Total), len(c.PPN))
		}
		for i, k := range c.PPN {
			if k < 1 || i > 0 && k <= c.PPN[i-1] {
				return fmt.Errorf("contention.ppn must be increasing rank counts of at least 1, got %v", c.PPN)
			}
			if c.Total[i] < 0 {
				return fmt.Errorf("contention.total[%d] = %g is negative", i, c.Total[i])
			}
		}
		if err := checkPerPPN("regions", "ratios", c.Regions, len(c.PPN)); err != nil {
			return err
		}
		if err := checkPerPPN("lengths", "lengths", c.Lengths, len(c.PPN)); err != nil {
			return err
		}
		if err := checkPerPPN("trips", "trip means", c.Trips, len(c.PPN)); err != nil {
			return err
		}
		if err := checkRankTrips(c); err != nil {
			return err
		}
	}
	return nil
}

// checkPerPPN checks a contention table keyed by region: one
// non-negative number per rank count.
func checkPerPPN(field, what string, rows map[string][]float64, n int) error {
	for _, id := range slices.Sorted(maps.Keys(rows)) {
		v := rows[id]
		if len(v) != n {
			return fmt.Errorf("contention.%s[%s]: %d %s for %d ppn", field, id, len(v), what, n)
		}
		for i, x := range v {
			if !(x >= 0) {
				return fmt.Errorf("contention.%s[%s][%d] = %g is negative", field, id, i, x)
			}
		}
	}
	return nil
}

// checkRankTrips checks contention.rankTrips: a row per rank count, each
// empty or a non-negative mean per rank of that run.
func checkRankTrips(c *Contention) error {
	for _, id := range slices.Sorted(maps.Keys(c.RankTrips)) {
		rows := c.RankTrips[id]
		if len(rows) != len(c.PPN) {
			return fmt.Errorf("contention.rankTrips[%s]: %d rows for %d ppn", id, len(rows), len(c.PPN))
		}
		for i, row := range rows {
			if len(row) != 0 && len(row) != c.PPN[i] {
				return fmt.Errorf("contention.rankTrips[%s][%d]: %d ranks' means in the run at %d ranks", id, i, len(row), c.PPN[i])
			}
			for r, x := range row {
				if !(x >= 0) {
					return fmt.Errorf("contention.rankTrips[%s][%d][%d] = %g is negative", id, i, r, x)
				}
			}
		}
	}
	return nil
}

const tripsWant = "want 0 <= min <= max and a non-negative mean and std"

func (t Trips) valid() bool { return t.Min >= 0 && t.Max >= t.Min && t.Mean >= 0 && t.Std >= 0 }
