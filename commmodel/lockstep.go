package commmodel

import (
	"math"
	"slices"
)

// LockstepRow is how many cores ranks that synchronise in lockstep
// effectively get: Ranks ranks on one node, each computing Compute seconds
// between exchanges with its neighbours, progress as if on Cores cores.
//
// On a cluster node with busy-polling MPI, Cores is min(Ranks, cores). It
// is less where a rank blocked in MPI gives up its core and a woken rank
// waits for one: the goroutine backend parks a blocked rank, and the Go
// scheduler runs the rank a message wakes on the sender's core as soon as
// the sender blocks, while waking an idle core can take longer than the
// exchange (a sleeping virtual CPU); ranks that exchange every few hundred
// microseconds then take turns on one core.
type LockstepRow struct {
	// Pattern is the exchange the ranks synchronise by: PatternRing (the
	// default) or PatternAlltoall.
	Pattern string  `yaml:"pattern,omitempty"`
	Ranks   int     `yaml:"ranks"`
	Compute float64 `yaml:"compute"`
	Cores   float64 `yaml:"cores"`
}

// The lockstep patterns. A ring step exchanges small messages with both
// neighbours and reduces one number: a rank waits for two others. An
// all-to-all step exchanges a block with every other rank (32 KiB each,
// sent by rendezvous): a rank waits for all of them, and a rank that is
// not on a core holds up every other.
const (
	PatternRing     = ""
	PatternAlltoall = "alltoall"
)

// EffectiveCores returns the cores ranks ranks on a node effectively get
// when each computes compute seconds between synchronisations, from the
// Lockstep table. Each measured rank count R gives an efficiency, cores /
// R, interpolated in log(compute) between its rows and constant outside
// them; ranks between two measured counts take the efficiency
// interpolated in log(ranks) (2 ranks that keep their 2 cores and 16 that
// get 13 of 16 say nothing like "4 ranks get 2 cores"), the nearest
// count's outside them. ok is false without a table.
func (m *Machine) EffectiveCores(ranks int, compute float64) (cores float64, ok bool) {
	return m.EffectiveCoresFor(PatternRing, ranks, compute)
}

// EffectiveCoresFor is EffectiveCores from the rows of one pattern; a
// table without rows of that pattern answers from its ring rows.
func (m *Machine) EffectiveCoresFor(pattern string, ranks int, compute float64) (cores float64, ok bool) {
	rows := m.lockstepRows(pattern)
	if len(rows) == 0 {
		rows = m.lockstepRows(PatternRing)
	}
	if len(rows) == 0 || ranks < 2 || !(compute > 0) {
		return 0, false
	}
	var counts []int
	for _, r := range rows {
		if r.Ranks > 0 && !slices.Contains(counts, r.Ranks) {
			counts = append(counts, r.Ranks)
		}
	}
	if len(counts) == 0 {
		return 0, false
	}
	slices.Sort(counts)
	eff := func(k int) float64 { return lockstepCores(rows, k, compute) / float64(k) }
	lo, hi := counts[0], counts[len(counts)-1]
	switch {
	case ranks <= lo:
		return eff(lo) * float64(ranks), true
	case ranks >= hi:
		return eff(hi) * float64(ranks), true
	}
	i, found := slices.BinarySearch(counts, ranks)
	if found {
		return eff(ranks) * float64(ranks), true
	}
	a, b := counts[i-1], counts[i]
	w := math.Log(float64(ranks)/float64(a)) / math.Log(float64(b)/float64(a))
	return (eff(a) + w*(eff(b)-eff(a))) * float64(ranks), true
}

// lockstepRows are the table's rows of pattern.
func (m *Machine) lockstepRows(pattern string) []LockstepRow {
	var rows []LockstepRow
	for _, r := range m.Lockstep {
		if r.Pattern == pattern {
			rows = append(rows, r)
		}
	}
	return rows
}

// lockstepCores are the effective cores of the rows measured with k ranks
// at compute, interpolated in log(compute), constant outside the rows.
func lockstepCores(all []LockstepRow, k int, compute float64) float64 {
	var rows []LockstepRow
	for _, r := range all {
		if r.Ranks == k {
			rows = append(rows, r)
		}
	}
	if compute <= rows[0].Compute {
		return rows[0].Cores
	}
	for i := 1; i < len(rows); i++ {
		if compute <= rows[i].Compute {
			a, b := rows[i-1], rows[i]
			w := math.Log(compute/a.Compute) / math.Log(b.Compute/a.Compute)
			return a.Cores + w*(b.Cores-a.Cores)
		}
	}
	return rows[len(rows)-1].Cores
}
