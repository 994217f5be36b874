package simnet

import (
	"math"
	"strings"
	"testing"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
)

// oneOp runs a single operation and finishes.
type oneOp struct {
	op   interpreter.Op
	done bool
}

func (p *oneOp) Step(interpreter.Result) (float64, interpreter.Op, error) {
	if p.done {
		return 0, interpreter.Op{Kind: interpreter.OpFinish}, nil
	}
	p.done = true
	return 0, p.op, nil
}

// The interpreter replaying our schedules through this network agrees with
// commmodel's own simulator when nothing contends (one rank per node)
// and every step has one message per rank: commmodel serialises a rank's
// several messages of one step (one-port model), the interpreter does not,
// so steps with many messages (linear algorithms) differ.
func TestInterpreterAgreesWithSimulate(t *testing.T) {
	m, err := commmodel.Load("ib-qdr")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind  interpreter.OpKind
		op    commmodel.Op
		p     int
		bytes int
	}{
		{interpreter.OpAllreduce, commmodel.Allreduce, 8, 8},
		{interpreter.OpBcast, commmodel.Bcast, 16, 1024},
		{interpreter.OpAlltoall, commmodel.Alltoall, 4, 1 << 20},
		{interpreter.OpBarrier, commmodel.Barrier, 3, 0}, // recursive doubling: one message per step
	} {
		pl, err := m.Place(tc.p, tc.p, 1, commmodel.Block)
		if err != nil {
			t.Fatal(err)
		}
		progs := make([]interpreter.Program, tc.p)
		for r := range progs {
			progs[r] = &oneOp{op: interpreter.Op{Kind: tc.kind, Bytes: tc.bytes}}
		}
		net := New(m, pl)
		net.NoLocalCopies = true // commmodel.Simulate has none
		run, err := interpreter.Simulate(net, progs, interpreter.Options{})
		if err != nil {
			t.Fatalf("%v: %v", tc.kind, err)
		}
		s, err := commmodel.Generate(tc.op, m.Select(tc.op, tc.p, tc.bytes, 0), tc.p, tc.bytes, 0, commmodel.Options{Placement: pl})
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Simulate(s, pl, commmodel.SimOptions{NoContention: true})
		if err != nil {
			t.Fatal(err)
		}
		if run.Makespan <= 0 || run.Makespan > 2*res.Time || res.Time > 2*run.Makespan {
			t.Errorf("%v P=%d: interpreter %.4g s, commmodel %.4g s", tc.kind, tc.p, run.Makespan, res.Time)
		}
	}
}

func TestContentionUsesChannelModel(t *testing.T) {
	m, err := commmodel.Load("ib-qdr")
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := m.Place(4, 2, 2, commmodel.Block)
	n := New(m, pl)
	mc := n.Message(0, 2, 16<<20)
	if len(mc.Channels) != 2 || mc.Channels[0] == mc.Channels[1] || !mc.Rendezvous {
		t.Fatalf("inter-node 16 MiB message: %+v", mc)
	}
	// ib-qdr's adapter table gives 2.0 at cf=2 for 16 MiB, and T_c = 3.9 us
	// per extra pair.
	for _, ch := range mc.Channels {
		extra, ratio := n.Contention(ch, 3, 16<<20)
		if extra != 2*3.9e-6 || ratio != 2.8 {
			t.Errorf("channel %d, cf=3: extra %v, ratio %v; want 7.8e-6, 2.8", ch, extra, ratio)
		}
		if extra, ratio := n.Contention(ch, 1, 16<<20); extra != 0 || ratio != 1 {
			t.Errorf("cf=1: extra %v, ratio %v", extra, ratio)
		}
	}
	if mc := n.Message(0, 1, 1024); len(mc.Channels) != 1 || mc.Rendezvous {
		t.Errorf("same-socket 1 KiB message: %+v", mc)
	}
}

// A rank's own block of a collective, and a message to itself, are
// copies in its memory at the socket level's bandwidth: at P = 1 they are
// all an all-to-all costs; a broadcast copies nothing.
func TestLocalCopies(t *testing.T) {
	m, err := commmodel.Load("ib-qdr")
	if err != nil {
		t.Fatal(err)
	}
	pl, err := m.Place(1, 1, 1, commmodel.Block)
	if err != nil {
		t.Fatal(err)
	}
	const n = 1 << 20
	_, bw := m.Params(commmodel.Socket).At(n)
	want := float64(n) / bw
	for _, tc := range []struct {
		kind interpreter.OpKind
		want float64
	}{
		{interpreter.OpAlltoall, want},
		{interpreter.OpAllreduce, want},
		{interpreter.OpGather, want},
		{interpreter.OpBcast, 0},
	} {
		run, err := interpreter.Simulate(New(m, pl), []interpreter.Program{&oneOp{op: interpreter.Op{Kind: tc.kind, Bytes: n}}}, interpreter.Options{})
		if err != nil {
			t.Fatalf("%v: %v", tc.kind, err)
		}
		if math.Abs(run.Makespan-tc.want) > 1e-12 {
			t.Errorf("%v of %d bytes at P=1: %.6g s, want %.6g s", tc.kind, n, run.Makespan, tc.want)
		}
	}
	if got := New(m, pl).Message(0, 0, n).Transfer; math.Abs(got-want) > 1e-12 {
		t.Errorf("message to itself: transfer %.6g s, want %.6g s", got, want)
	}
}

// TestLargeCollectives: past the ranks whose schedules Generate builds
// for O(P^2) algorithms, a broadcast the rules give to scatter-allgather
// is simulated with the algorithm of the next best closed form (not the
// linear one), and an all-to-all, which every algorithm makes O(P^2),
// synchronises the ranks and then takes its closed-form time; both are
// noted. Before, either panicked.
func TestLargeCollectives(t *testing.T) {
	m, err := commmodel.Load("ib-qdr")
	if err != nil {
		t.Fatal(err)
	}
	const p = 4096
	m.Nodes = p / 8
	pl, err := m.Place(p, p/8, 8, commmodel.Block)
	if err != nil {
		t.Fatal(err)
	}
	n := New(m, pl)
	bytes := 64 << 20
	if alg := m.Select(commmodel.Bcast, p, bytes, 0); alg != commmodel.ScatterAllgather {
		t.Fatalf("the rules give a %d-byte Bcast on %d ranks %v; the test needs scatter-allgather", bytes, p, alg)
	}
	bcast := n.Schedule(interpreter.OpBcast, p, bytes, 0, 0)
	if steps := len(bcast[p-1]); steps > 13 {
		t.Errorf("the broadcast's last rank takes %d steps, want a binomial tree's few", steps)
	}
	all := n.Schedule(interpreter.OpAlltoall, p, 1024, 0, 0)
	want, ok := m.Estimate(commmodel.Alltoall, pl, 1024)
	if !ok {
		t.Fatal("no closed form of the all-to-all")
	}
	last := all[0][len(all[0])-1]
	if len(last.Sends)+len(last.Recvs) != 0 || last.Compute <= 0 || last.Compute > want {
		t.Errorf("the all-to-all's last step %+v, want its closed-form time %g s less the synchronisation", last, want)
	}
	if len(all[0]) > 14 {
		t.Errorf("the all-to-all's rank 0 takes %d steps, want a dissemination barrier's 12 and the closed form", len(all[0]))
	}
	notes := strings.Join(n.Notes(), "\n")
	if !strings.Contains(notes, "Bcast on 4096 ranks: simulated with the binomial algorithm") || !strings.Contains(notes, "Alltoall on 4096 ranks: costed by the closed form") {
		t.Errorf("notes:\n%s", notes)
	}
}
