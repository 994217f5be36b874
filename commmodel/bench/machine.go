package bench

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/mpi"
)

// buildMachine turns the report into a machine description. One
// ping-pong pair (ranks 0 and 1) is measured, so its fit is used for every
// level, as the provenance says: with the goroutine backend all ranks are
// in one process on one node; under MPI the pair is on one host or on two,
// as the job placed ranks 0 and 1.
func buildMachine(o Options, rep *Report) (*commmodel.Machine, error) {
	var samples []Sample
	for _, r := range rep.Rows {
		if r.Kind == "pingpong" && r.Valid > 0 {
			samples = append(samples, Sample{Bytes: r.Bytes, Time: r.Mean / 2})
		}
	}
	if len(samples) < 2 {
		return nil, fmt.Errorf("bench: only %d valid ping-pong points", len(samples))
	}
	rep.Fit = SegmentedFit(samples, 3)
	lp := commmodel.LevelParams{Latency: rep.Fit[0].Latency, Bandwidth: rep.Fit[0].Bandwidth}
	eager := 1 << 30 // no protocol change seen in the measured range
	for _, l := range rep.Fit[1:] {
		lp.Pieces = append(lp.Pieces, commmodel.Piece{From: l.From, Latency: l.Latency, Bandwidth: l.Bandwidth})
		eager = l.From - 1
	}
	m := &commmodel.Machine{
		Name:        o.Name,
		Description: fmt.Sprintf("this machine (%s, %d cores) calibrated by predict bench over the %s", rep.CPU, rep.Cores, rep.Backend),
		Provenance: map[string]string{
			"date":    rep.Date,
			"cpu":     rep.CPU,
			"go":      rep.Go,
			"backend": rep.Backend,
			"levels":  levelsNote(rep),
			"method":  "MPIPerf (SEEDS.md 2): synchronised launch slots, warm-up discarded, max over ranks, 25% trimmed mean",
		},
		Nodes: max(rep.Hosts, 1), SocketsPerNode: 1, CoresPerSocket: rep.Cores,
		Levels:            commmodel.Levels{Socket: lp, Node: lp, Network: lp},
		EagerLimit:        eager,
		HandshakeMessages: 3,
		ReduceTimePerByte: reduceTimePerByte(),
		Collectives:       commmodel.CollectiveConfig{Rules: backendRules},
	}
	if len(rep.Notes) > 0 {
		m.Provenance["notes"] = strings.Join(rep.Notes, "; ")
	}
	if m.EagerLimit == 1<<30 {
		m.HandshakeMessages = 0
	}
	if !rep.MPI {
		// The goroutine backend's protocol is known, not fitted: the
		// ping-pong cannot see it (its receives are always posted
		// first), yet a large message's sender waits for the posted
		// receive, and with it for what the receiver does first (a
		// Bcast's root for a receiver faulting in a fresh buffer: matmul
		// at 2 ranks was predicted 9-18 % short in every pass, eager).
		m.EagerLimit = mpi.GoroutineRendezvousBytes - 1
		m.HandshakeMessages = 0
		m.RendezvousWait = mpi.GoroutineRendezvousWait.Seconds()
		m.Provenance["protocol"] = fmt.Sprintf("the goroutine backend's: blocking sends of %d bytes or more wait up to %v for the posted receive (rendezvous, no handshake message), then queue the message", mpi.GoroutineRendezvousBytes, mpi.GoroutineRendezvousWait)
	}
	// Contention: rows per size, ratios for cf = 1..k.
	bySize := map[int][]float64{}
	var sizes []int
	for _, r := range rep.Rows {
		if r.Kind == "contention" && r.Ratio > 0 {
			if _, ok := bySize[r.Bytes]; !ok {
				sizes = append(sizes, r.Bytes)
			}
			bySize[r.Bytes] = append(bySize[r.Bytes], round3(r.Ratio))
		}
	}
	for _, s := range sizes {
		m.Channels.Memory.Table = append(m.Channels.Memory.Table, commmodel.DegradeTable{Size: s, Ratios: bySize[s]})
	}
	for _, r := range rep.Rows {
		if r.Kind == "compute" && r.Ratio > 0 {
			// Ranks sharing a node do not compute faster than one alone:
			// a ratio below 1 (0.732 on a VM whose one-rank runs were
			// slowed) is the machine's noise, which as a factor would
			// predict superlinear speedups for every program.
			m.ComputeSlowdown = append(m.ComputeSlowdown, commmodel.SlowdownRow{PPN: r.Ranks, Factor: max(1, round3(r.Ratio))})
		}
		if r.Kind == "faults" && r.Ratio > 0 {
			if m.PageFaults == nil {
				m.PageFaults = &commmodel.PageFaults{PageSize: r.Bytes, Time: r.Mean}
			}
			m.PageFaults.Concurrent = append(m.PageFaults.Concurrent, commmodel.SlowdownRow{PPN: r.Ranks, Factor: round3(r.Ratio)})
		}
		if r.Kind == "noise" && len(r.Detours) > 0 {
			m.Noise = noiseModel(r)
		}
		if r.Kind == "refetch" && r.Ratio > 0 && r.Cache > 0 {
			m.Refetch = &commmodel.Refetch{Bandwidth: math.Round(r.Ratio/1e6) * 1e6, Cache: float64(r.Cache)}
		}
		if r.Kind == "lockstep" && r.Cores > 0 {
			m.Lockstep = append(m.Lockstep, commmodel.LockstepRow{Pattern: r.Pattern, Ranks: r.Ranks, Compute: r.Compute, Cores: round3(r.Cores)})
		}
	}
	// Rows come in suite order: by ranks, then pattern, then compute. The
	// file has each pattern's rows together, ring first.
	slices.SortStableFunc(m.Lockstep, func(a, b commmodel.LockstepRow) int {
		return cmp.Or(cmp.Compare(a.Pattern, b.Pattern), cmp.Compare(a.Ranks, b.Ranks))
	})
	return m, nil
}

// levelsNote says what the one ping-pong fit stands for.
func levelsNote(rep *Report) string {
	switch {
	case !rep.MPI:
		return "one process on one node: the ping-pong fit of ranks 0 and 1 stands for every level"
	case rep.Hosts <= 1:
		return fmt.Sprintf("%d processes on one host: the ping-pong fit of ranks 0 and 1 (shared memory) stands for every level", rep.Ranks)
	case rep.PairSameHost:
		return fmt.Sprintf("%d processes on %d hosts; ranks 0 and 1 share a host: their ping-pong fit (within a node) stands for every level", rep.Ranks, rep.Hosts)
	}
	return fmt.Sprintf("%d processes on %d hosts; ranks 0 and 1 are on different hosts: their ping-pong fit (the network) stands for every level", rep.Ranks, rep.Hosts)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// noiseModel is the machine file's noise section from a noise row, its
// durations to three significant digits (never below the threshold).
func noiseModel(r Row) *commmodel.Noise {
	sig3 := func(x float64) float64 {
		v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
		return v
	}
	th := sig3(r.Threshold)
	n := &commmodel.Noise{Threshold: th, Rate: math.Round(r.Rate), Ranks: r.Ranks}
	for _, d := range r.Detours {
		n.Detours = append(n.Detours, max(sig3(d), th))
	}
	return n
}

// reduceTimePerByte times a float64 sum of two 8 MiB vectors (best of 5).
func reduceTimePerByte() float64 {
	a, b := make([]float64, 1<<20), make([]float64, 1<<20)
	best := math.Inf(1)
	for range 5 {
		t0 := time.Now()
		for i := range a {
			a[i] += b[i]
		}
		best = min(best, time.Since(t0).Seconds())
	}
	return best / float64(8*len(a))
}

// predictCollectives fills in the fitted model's prediction of each timed
// collective, on one node with every rank on it.
func predictCollectives(m *commmodel.Machine, rep *Report, np int) {
	pl, err := m.Place(np, 1, min(np, m.CoresPerNode()), commmodel.Block)
	if err != nil {
		return // more ranks than cores: no placement to predict for
	}
	for i, r := range rep.Rows {
		if r.Kind != "collective" {
			continue
		}
		op, err := commmodel.ParseOp(r.Label)
		if err != nil {
			continue
		}
		s, err := commmodel.Generate(op, m.Select(op, np, r.Bytes, 0), np, r.Bytes, 0, commmodel.Options{Placement: pl})
		if err != nil {
			continue
		}
		if res, err := m.Simulate(s, pl, commmodel.SimOptions{}); err == nil {
			rep.Rows[i].Predicted = res.Time
		}
	}
}
