package interpreter

import (
	"fmt"
	"testing"
)

// halo is a synthetic 1-D halo-exchange program: per step, compute, then
// exchange a boundary with both neighbours (Sendrecv up, Sendrecv down),
// then an 8-byte Allreduce every 10 steps.
type halo struct {
	rank, p, steps int
	work           float64
	bytes          int
	step, phase    int
}

func newHalo(rank, p, steps int, work float64, bytes int) *halo {
	return &halo{rank: rank, p: p, steps: steps, work: work, bytes: bytes}
}

func (h *halo) Step(Result) (float64, Op, error) {
	for {
		if h.step == h.steps {
			return 0, Op{Kind: OpFinish}, nil
		}
		ph := h.phase
		h.phase++
		switch ph {
		case 0:
			if h.rank > 0 {
				return h.work, Op{Kind: OpSendrecv, Peer: h.rank - 1, Bytes: h.bytes, RecvPeer: h.rank - 1, RecvBytes: h.bytes}, nil
			}
		case 1:
			if h.rank < h.p-1 {
				return 0, Op{Kind: OpSendrecv, Peer: h.rank + 1, Bytes: h.bytes, RecvPeer: h.rank + 1, RecvBytes: h.bytes}, nil
			}
		case 2:
			h.phase = 0
			h.step++
			if h.step%10 == 0 {
				return 0, Op{Kind: OpAllreduce, Bytes: 8}, nil
			}
		}
	}
}

// BenchmarkHaloP1024 reports simulated MPI operations per second for a
// halo exchange at P = 1024 (issue target: at least 1e6 events/s).
func BenchmarkHaloP1024(b *testing.B) {
	const p, steps = 1024, 100
	h := hockney{o: 1e-6, L: 2e-6, B: 1e9, eager: 1 << 16, ppn: 8}
	var ops int64
	for range b.N {
		progs := make([]Program, p)
		for r := range progs {
			progs[r] = newHalo(r, p, steps, 1e-4*float64(1+r%3), 8192)
		}
		run, err := Simulate(h, progs, Options{})
		if err != nil {
			b.Fatal(err)
		}
		ops += run.Ops
	}
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(ops)/float64(b.N), "events/op")
}

func ExampleSimulate() {
	net := hockney{o: 1e-6, L: 5e-6, B: 1e9, eager: 1 << 16}
	run, _ := Simulate(net, []Program{
		ops(Op{Kind: OpSend, Peer: 1, Bytes: 1000}),
		ops(Op{Kind: OpRecv, Peer: 0, Bytes: 1000}),
	}, Options{})
	fmt.Printf("%.1f us\n", run.Makespan*1e6)
	// Output: 8.0 us
}
