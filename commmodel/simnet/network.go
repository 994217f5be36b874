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
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/parpredict/parpredict/commmodel"
	"github.com/parpredict/parpredict/interpreter"
)

// Network prices the interpreter's messages on a machine.
type Network struct {
	M  *commmodel.Machine
	PL *commmodel.Placement
	// NoLocalCopies leaves out the copy of a rank's own block that
	// collectives make (as commmodel.Simulate does).
	NoLocalCopies bool

	scratch []commmodel.Channel // Message's buffer for the model's channels
	chanBuf []int               // Message's channel lists are carved from it
	notes   map[string]bool     // collectives modelled other than the rules say
}

var _ interpreter.Network = (*Network)(nil)

// New returns the network of machine m with ranks placed by pl.
func New(m *commmodel.Machine, pl *commmodel.Placement) *Network { return &Network{M: m, PL: pl} }

// Message implements interpreter.Network. The channels are those the
// payload crosses: the sender's outgoing and the receiver's incoming
// adapter across nodes, the node's inter-socket link, or the socket's
// memory.
//
// A message to the sending rank itself is a copy in its memory
// (localCopy); commmodel prices it at nothing.
func (n *Network) Message(src, dst, bytes int) interpreter.MessageCost {
	c := n.M.AppendMessage(n.scratch[:0], n.PL, src, dst, bytes)
	n.scratch = c.Channels
	if c.Level == commmodel.Self {
		return interpreter.MessageCost{Transfer: n.localCopy(bytes)}
	}
	mc := interpreter.MessageCost{SendOverhead: c.SendOverhead, RecvOverhead: c.RecvOverhead,
		Latency: c.Latency, Transfer: c.Transfer, Rendezvous: c.Rendezvous}
	if c.Rendezvous && c.Handshakes > 0 {
		mc.Handshake = c.Latency
	}
	if k := len(c.Channels); k > 0 {
		// A simulation prices 215,863 messages for heat at P = 1024: their
		// channel lists share blocks rather than being two allocations each.
		if len(n.chanBuf) < k {
			n.chanBuf = make([]int, max(chanBlock, k))
		}
		mc.Channels = n.chanBuf[:k:k]
		n.chanBuf = n.chanBuf[k:]
		for i, ch := range c.Channels {
			mc.Channels[i] = int(ch)
		}
	}
	return mc
}

// chanBlock is the number of channel numbers Message allocates at once.
const chanBlock = 1024

// Contention implements interpreter.Network with the channel's model:
// T_c = latency*(cf-1) and the ratio t(n,cf)/t(n,1).
func (n *Network) Contention(ch, cf, bytes int) (extraLatency, ratio float64) {
	if ch < 0 || ch >= n.M.NumChannels() {
		return 0, 1
	}
	return n.M.Contention(commmodel.Channel(ch), cf, bytes)
}

var kinds = map[interpreter.OpKind]commmodel.Op{
	interpreter.OpBarrier: commmodel.Barrier, interpreter.OpBcast: commmodel.Bcast,
	interpreter.OpReduce: commmodel.Reduce, interpreter.OpAllreduce: commmodel.Allreduce,
	interpreter.OpGather: commmodel.Gather, interpreter.OpScatter: commmodel.Scatter,
	interpreter.OpAllgather: commmodel.Allgather, interpreter.OpAlltoall: commmodel.Alltoall,
}

// largeSchedule stands in for alg's schedule of op over p ranks, which
// would hold O(P^2) transfers (Generate refuses it): another algorithm of
// op without that many, else ranks that synchronise (a dissemination
// barrier of empty messages) and then take alg's closed-form time over
// the placement's slowest level, without contention. Either is noted.
func (n *Network) largeSchedule(op commmodel.Op, alg commmodel.Algorithm, p, bytes, root int) (s *commmodel.Schedule, tail float64, err error) {
	// The others in the order of their closed-form times between nodes:
	// the linear broadcast of a matrix to 4096 ranks is no stand-in for a
	// scatter and all-gather.
	type candidate struct {
		alg  commmodel.Algorithm
		time float64
	}
	h := n.M.Hockney(commmodel.Network)
	var others []candidate
	for _, other := range commmodel.Algorithms(op) {
		if t, _, ok := h.ClosedForm(op, other, p, bytes); ok && other != alg {
			others = append(others, candidate{other, t})
		}
	}
	slices.SortStableFunc(others, func(a, b candidate) int { return cmp.Compare(a.time, b.time) })
	for _, other := range others {
		if s, err := commmodel.Generate(op, other.alg, p, bytes, root, commmodel.Options{Placement: n.PL}); err == nil {
			n.note(fmt.Sprintf("%v on %d ranks: simulated with the %v algorithm instead of %v, whose schedule would hold O(P^2) transfers", op, p, other.alg, alg))
			return s, 0, nil
		}
	}
	t, ok := n.M.Estimate(op, n.PL, bytes)
	if !ok {
		return nil, 0, fmt.Errorf("%w; %v has no closed form", commmodel.ErrTooLarge, alg)
	}
	if s, err = commmodel.Generate(commmodel.Barrier, commmodel.Dissemination, p, 0, 0, commmodel.Options{}); err != nil {
		return nil, 0, err
	}
	sync, _ := n.M.Estimate(commmodel.Barrier, n.PL, 0)
	n.note(fmt.Sprintf("%v on %d ranks: costed by the closed form of %v (%.3g s) after the ranks synchronise, without contention: every algorithm's schedule would hold O(P^2) transfers", op, p, alg, t))
	return s, max(t-sync, 0), nil
}

func (n *Network) note(s string) {
	if n.notes == nil {
		n.notes = map[string]bool{}
	}
	n.notes[s] = true
}

// Notes implements interpreter.Noter.
func (n *Network) Notes() []string {
	return slices.Sorted(maps.Keys(n.notes))
}

// Schedule implements interpreter.Network with the algorithm the
// machine's rules select. The interpreter has no error path here, so an
// operation the model does not know panics, naming the phase.
func (n *Network) Schedule(kind interpreter.OpKind, p, bytes, elem, root int) [][]interpreter.Step {
	op, ok := kinds[kind]
	if !ok {
		panic(fmt.Sprintf("simnet: Schedule: %v is not a collective", kind))
	}
	alg := n.M.Select(op, p, bytes, elem)
	s, err := commmodel.Generate(op, alg, p, bytes, root, commmodel.Options{Placement: n.PL})
	tail := 0.0 // closed-form time after the schedule's messages
	if errors.Is(err, commmodel.ErrTooLarge) {
		s, tail, err = n.largeSchedule(op, alg, p, bytes, root)
	}
	if err != nil {
		panic(fmt.Sprintf("simnet: Schedule %v/%v P=%d: %v", op, alg, p, err))
	}
	// Steps and transfers are carved out of two arrays: at P = 1024 a
	// schedule has tens of thousands of them.
	nsteps, ntransfers := 0, 0
	for _, steps := range s.Ranks {
		nsteps += len(steps) + 2 // a local copy before, a closed form after
		for _, st := range steps {
			ntransfers += len(st.Sends) + len(st.Recvs)
		}
	}
	stepBuf := make([]interpreter.Step, 0, nsteps)
	transferBuf := make([]interpreter.Transfer, 0, ntransfers)
	transfers := func(ts []commmodel.Transfer) []interpreter.Transfer {
		if len(ts) == 0 {
			return nil
		}
		start := len(transferBuf)
		for _, t := range ts {
			transferBuf = append(transferBuf, interpreter.Transfer{Peer: t.Peer, Bytes: t.Bytes})
		}
		return transferBuf[start:len(transferBuf):len(transferBuf)]
	}
	out := make([][]interpreter.Step, p)
	for r := range p {
		start := len(stepBuf)
		if copied := localBytes(op, bytes, r, root); copied > 0 && !n.NoLocalCopies {
			stepBuf = append(stepBuf, interpreter.Step{Compute: n.localCopy(copied)})
		}
		if r < len(s.Ranks) {
			for _, st := range s.Ranks[r] {
				stepBuf = append(stepBuf, interpreter.Step{Compute: float64(st.ReduceBytes) * n.M.ReduceTimePerByte,
					Sends: transfers(st.Sends), Recvs: transfers(st.Recvs)})
			}
		}
		if tail > 0 {
			stepBuf = append(stepBuf, interpreter.Step{Compute: tail})
		}
		if len(stepBuf) > start {
			out[r] = stepBuf[start:len(stepBuf):len(stepBuf)]
		}
	}
	return out
}

// localCopy is the time to copy n bytes within a rank's memory: a message
// to itself, or its own block of a collective. A memory copy runs at about
// the speed of a transfer within a socket, without its latency.
func (n *Network) localCopy(bytes int) float64 {
	if bytes <= 0 {
		return 0
	}
	_, bw := n.M.Params(commmodel.Socket).At(bytes)
	if bw <= 0 {
		return 0
	}
	return float64(bytes) / bw
}

// localBytes is what rank r of a collective copies from its send buffer to
// its receive buffer itself, as MPI implementations do before the
// exchange: its own block of an all-to-all, an all-gather, and the root's
// of a gather or scatter; the input of a reduction into the result (every
// rank's for Allreduce, the root's for Reduce). bytes counts as in
// commmodel.Generate.
func localBytes(op commmodel.Op, bytes, r, root int) int {
	switch op {
	case commmodel.Alltoall, commmodel.Allgather, commmodel.Allreduce:
		return bytes
	case commmodel.Gather, commmodel.Scatter, commmodel.Reduce:
		if r == root {
			return bytes
		}
	}
	return 0
}
