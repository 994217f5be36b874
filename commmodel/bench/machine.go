package bench

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/parpredict/parpredict/commmodel"
)

// buildMachine turns the report into a machine description. The
// goroutine backend has a single level (all ranks in one process on one
// node): its ping-pong fit is used for every level, as the provenance says.
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
		Description: fmt.Sprintf("this machine (%s, %d cores) calibrated by predict bench over the mpi goroutine backend", rep.CPU, rep.Cores),
		Provenance: map[string]string{
			"date":    rep.Date,
			"cpu":     rep.CPU,
			"go":      rep.Go,
			"backend": rep.Backend,
			"levels":  "one process on one node: the ping-pong fit of ranks 0 and 1 stands for every level",
			"method":  "MPIPerf (SEEDS.md 2): synchronised launch slots, warm-up discarded, max over ranks, 25% trimmed mean",
		},
		Nodes: 1, SocketsPerNode: 1, CoresPerSocket: rep.Cores,
		Levels:            commmodel.Levels{Socket: lp, Node: lp, Network: lp},
		EagerLimit:        eager,
		HandshakeMessages: 3,
		ReduceTimePerByte: reduceTimePerByte(),
		Collectives:       commmodel.CollectiveConfig{Rules: commmodel.RulesOpenMPI},
	}
	if m.EagerLimit == 1<<30 {
		m.HandshakeMessages = 0
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
			m.ComputeSlowdown = append(m.ComputeSlowdown, commmodel.SlowdownRow{PPN: r.Ranks, Factor: round3(r.Ratio)})
		}
	}
	return m, nil
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

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
		s, err := commmodel.Generate(op, m.Select(op, np, r.Bytes), np, r.Bytes, 0, commmodel.Options{Placement: pl})
		if err != nil {
			continue
		}
		if res, err := m.Simulate(s, pl, commmodel.SimOptions{}); err == nil {
			rep.Rows[i].Predicted = res.Time
		}
	}
}

// cpuModel reads the CPU's name from /proc/cpuinfo ("unknown" elsewhere).
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
