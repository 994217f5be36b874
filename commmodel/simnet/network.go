// Package simnet connects the communication model to the interpreter: a
// [Network] prices messages and chooses collective schedules for the
// interpreter's discrete-event simulation, from a commmodel.Machine and a
// placement of the ranks.
//
//	Network   implements interpreter.Network over a Machine and a Placement
//
// Byte counts follow commmodel.Generate: the whole buffer for Bcast,
// Reduce and Allreduce, the block one rank sends to one peer for Gather,
// Scatter, Allgather and Alltoall.
package simnet

import (
	"fmt"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
)

// Network prices the interpreter's messages on a machine.
type Network struct {
	M  *commmodel.Machine
	PL *commmodel.Placement
}

var _ interpreter.Network = (*Network)(nil)

// New returns the network of machine m with ranks placed by pl.
func New(m *commmodel.Machine, pl *commmodel.Placement) *Network { return &Network{M: m, PL: pl} }

// Message implements interpreter.Network. The channel reported is the
// busiest kind the message uses: the sender's adapter across nodes, the
// node's inter-socket link, or the socket's memory.
func (n *Network) Message(src, dst, bytes int) interpreter.MessageCost {
	c := n.M.Message(n.PL, src, dst, bytes)
	mc := interpreter.MessageCost{SendOverhead: c.SendOverhead, RecvOverhead: c.RecvOverhead,
		Latency: c.Latency, Transfer: c.Transfer, Rendezvous: c.Rendezvous, Channel: -1}
	if len(c.Channels) > 0 {
		mc.Channel = int(c.Channels[0])
	}
	return mc
}

// Slowdown implements interpreter.Network: the ratio of the channel's
// contention model, with its contention latency folded into the factor.
func (n *Network) Slowdown(ch, cf, bytes int) float64 {
	if cf <= 1 || ch < 0 {
		return 1
	}
	c := commmodel.Channel(ch)
	level := commmodel.Socket
	switch n.M.Kind(c) {
	case commmodel.Adapter, commmodel.AdapterIn:
		level = commmodel.Network
	case commmodel.Link:
		level = commmodel.Node
	}
	lat, bw := n.M.Params(level).At(bytes)
	cost := commmodel.Cost{Latency: lat, Transfer: float64(bytes) / bw}
	return n.M.Slowdown(c, cf, bytes, cost)
}

var kinds = map[interpreter.OpKind]commmodel.Op{
	interpreter.OpBarrier: commmodel.Barrier, interpreter.OpBcast: commmodel.Bcast,
	interpreter.OpReduce: commmodel.Reduce, interpreter.OpAllreduce: commmodel.Allreduce,
	interpreter.OpGather: commmodel.Gather, interpreter.OpScatter: commmodel.Scatter,
	interpreter.OpAllgather: commmodel.Allgather, interpreter.OpAlltoall: commmodel.Alltoall,
}

// Schedule implements interpreter.Network with the algorithm the
// machine's rules select. The interpreter has no error path here, so an
// operation the model does not know panics, naming the phase.
func (n *Network) Schedule(kind interpreter.OpKind, p, bytes, root int) [][]interpreter.Step {
	op, ok := kinds[kind]
	if !ok {
		panic(fmt.Sprintf("simnet: Schedule: %v is not a collective", kind))
	}
	alg := n.M.Select(op, p, bytes)
	s, err := commmodel.Generate(op, alg, p, bytes, root, commmodel.Options{Placement: n.PL})
	if err != nil {
		panic(fmt.Sprintf("simnet: Schedule %v/%v P=%d: %v", op, alg, p, err))
	}
	out := make([][]interpreter.Step, p)
	for r, steps := range s.Ranks {
		for _, st := range steps {
			is := interpreter.Step{Compute: float64(st.ReduceBytes) * n.M.ReduceTimePerByte}
			for _, t := range st.Sends {
				is.Sends = append(is.Sends, interpreter.Transfer{Peer: t.Peer, Bytes: t.Bytes})
			}
			for _, t := range st.Recvs {
				is.Recvs = append(is.Recvs, interpreter.Transfer{Peer: t.Peer, Bytes: t.Bytes})
			}
			out[r] = append(out[r], is)
		}
	}
	return out
}
