package commmodel

import "math"

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
	Ranks   int     `yaml:"ranks"`
	Compute float64 `yaml:"compute"`
	Cores   float64 `yaml:"cores"`
}

// EffectiveCores returns the cores ranks ranks on a node effectively get
// when each computes compute seconds between synchronisations, from the
// Lockstep table: the rows of the largest measured rank count not above
// ranks (else the smallest), interpolated in log(compute), constant
// outside the measured range. ok is false without a table.
func (m *Machine) EffectiveCores(ranks int, compute float64) (cores float64, ok bool) {
	if len(m.Lockstep) == 0 || ranks < 2 || !(compute > 0) {
		return 0, false
	}
	k := m.Lockstep[0].Ranks
	for _, r := range m.Lockstep {
		if r.Ranks <= ranks {
			k = r.Ranks
		}
	}
	var rows []LockstepRow
	for _, r := range m.Lockstep {
		if r.Ranks == k {
			rows = append(rows, r)
		}
	}
	if compute <= rows[0].Compute {
		return rows[0].Cores, true
	}
	for i := 1; i < len(rows); i++ {
		if compute <= rows[i].Compute {
			a, b := rows[i-1], rows[i]
			w := math.Log(compute/a.Compute) / math.Log(b.Compute/a.Compute)
			return a.Cores + w*(b.Cores-a.Cores), true
		}
	}
	return rows[len(rows)-1].Cores, true
}
