package commmodel

import "fmt"

// Level is the distance between two ranks.
type Level uint8

// The levels, nearest first.
const (
	Self    Level = iota // the same rank
	Socket               // same socket
	Node                 // same node, other socket
	Network              // other node
)

func (l Level) String() string {
	return [...]string{"self", "socket", "node", "network"}[l]
}

// LevelOf returns the level between ranks a and b under pl.
func LevelOf(pl *Placement, a, b int) Level {
	switch {
	case a == b:
		return Self
	case pl.Node[a] != pl.Node[b]:
		return Network
	case pl.Socket[a] != pl.Socket[b]:
		return Node
	}
	return Socket
}

// Params returns the parameters of level l.
func (m *Machine) Params(l Level) *LevelParams {
	switch l {
	case Socket:
		return &m.Levels.Socket
	case Node:
		return &m.Levels.Node
	}
	return &m.Levels.Network
}

// At returns latency and bandwidth for a message of n bytes: those of the
// last piece starting at or below n, else the level's own.
func (p *LevelParams) At(n int) (latency, bandwidth float64) {
	latency, bandwidth = p.Latency, p.Bandwidth
	for _, pc := range p.Pieces {
		if pc.From <= n {
			latency, bandwidth = pc.Latency, pc.Bandwidth
		}
	}
	return latency, bandwidth
}

// Cost is the uncontended timing of one message, in seconds.
type Cost struct {
	Level        Level
	SendOverhead float64 // sender CPU time (o_s)
	RecvOverhead float64 // receiver CPU time (o_r)
	Latency      float64 // wire latency of one message, also of each handshake message
	Transfer     float64 // payload time through the bottleneck, n / bandwidth
	Rendezvous   bool    // handshake before the payload (RTS, CTS) and after (FIN)
	Handshakes   int     // zero-byte synchronisation messages when Rendezvous
	// Channels are the shared channels the transfer uses (none within a
	// socket's cache, one per node adapter across nodes).
	Channels []Channel
}

// Total is the time from the send's start to the receive's completion when
// both sides are ready and nothing else shares the channels.
func (c Cost) Total() float64 {
	return c.SendOverhead + c.Latency*float64(1+c.Handshakes) + c.Transfer + c.RecvOverhead
}

// Message returns the uncontended cost of a message of n bytes from rank
// src to rank dst under pl.
func (m *Machine) Message(pl *Placement, src, dst, n int) Cost {
	return m.AppendMessage(nil, pl, src, dst, n)
}

// AppendMessage is Message with the cost's channels appended to chans,
// for callers that price many messages and reuse one buffer.
func (m *Machine) AppendMessage(chans []Channel, pl *Placement, src, dst, n int) Cost {
	l := LevelOf(pl, src, dst)
	if l == Self {
		return Cost{Level: Self}
	}
	p := m.Params(l)
	lat, bw := p.At(n)
	c := Cost{Level: l, SendOverhead: p.SendOverhead, RecvOverhead: p.RecvOverhead,
		Latency: lat, Transfer: float64(n) / bw, Channels: m.appendChannels(chans, pl, src, dst, l)}
	if n > m.EagerLimit {
		c.Rendezvous = true
		c.Handshakes = m.HandshakeMessages
	}
	return c
}

// Channel identifies one shared channel of the machine.
type Channel int

// ChannelKind is the kind of a shared channel.
type ChannelKind uint8

// The channel kinds.
const (
	Adapter   ChannelKind = iota // a node's network adapter, sending side
	AdapterIn                    // a node's network adapter, receiving side (full duplex)
	Link                         // a node's inter-socket link
	Memory                       // a socket's memory controller
)

func (k ChannelKind) String() string {
	return [...]string{"adapter", "adapter-in", "link", "memory"}[k]
}

func (m *Machine) perNode() int { return 3 + m.SocketsPerNode }

// ChannelOf returns the channel of kind k on node (and socket, for Memory).
func (m *Machine) ChannelOf(k ChannelKind, node, socket int) Channel {
	c := node*m.perNode() + int(k)
	if k == Memory {
		c += socket
	}
	return Channel(c)
}

// Kind returns the kind of channel ch.
func (m *Machine) Kind(ch Channel) ChannelKind {
	return ChannelKind(min(int(ch)%m.perNode(), int(Memory)))
}

// NumChannels is the number of distinct channels of the machine.
func (m *Machine) NumChannels() int { return m.Nodes * m.perNode() }

func (m *Machine) appendChannels(chans []Channel, pl *Placement, src, dst int, l Level) []Channel {
	switch l {
	case Network:
		return append(chans, m.ChannelOf(Adapter, pl.Node[src], 0), m.ChannelOf(AdapterIn, pl.Node[dst], 0))
	case Node:
		return append(chans, m.ChannelOf(Link, pl.Node[src], 0))
	}
	return append(chans, m.ChannelOf(Memory, pl.Node[src], pl.Socket[src]))
}

func (m *Machine) model(k ChannelKind) *ChannelModel {
	switch k {
	case Adapter, AdapterIn:
		return &m.Channels.Adapter
	case Link:
		return &m.Channels.Link
	}
	return &m.Channels.Memory
}

// Ratio returns t(n,cf)/t(n,1) for a transfer of n bytes on a channel of
// kind k shared by cf transfers: from the measured table when there is
// one (linear in size between rows, and extended linearly in cf beyond
// it), else cf (fair bandwidth sharing).
func (m *Machine) Ratio(k ChannelKind, cf, n int) float64 {
	if cf <= 1 {
		return 1
	}
	t := m.model(k).Table
	if len(t) == 0 {
		return float64(cf)
	}
	i := 0
	for i < len(t) && t[i].Size < n {
		i++
	}
	switch {
	case i == 0:
		return rowRatio(t[0].Ratios, cf)
	case i == len(t):
		return rowRatio(t[len(t)-1].Ratios, cf)
	}
	a, b := t[i-1], t[i]
	w := float64(n-a.Size) / float64(b.Size-a.Size)
	return rowRatio(a.Ratios, cf)*(1-w) + rowRatio(b.Ratios, cf)*w
}

func rowRatio(r []float64, cf int) float64 {
	if cf <= len(r) {
		return r[cf-1]
	}
	last := r[len(r)-1]
	step := 1.0
	if len(r) > 1 {
		step = last - r[len(r)-2]
	}
	return last + step*float64(cf-len(r))
}

// Contended returns the wire time (latency and transfer) of a message of
// n bytes with cost c when the busiest of its channels is shared by cf
// transfers: the transfer is scaled by the channel's ratio and the
// channel's contention latency T_c = Latency*(cf-1) is added.
func (m *Machine) Contended(c Cost, ch Channel, cf, n int) (latency, transfer float64) {
	extra, ratio := m.Contention(ch, cf, n)
	return c.Latency + extra, c.Transfer * ratio
}

// Contention returns the latency added to, and the factor applied to the
// transfer of, an n-byte message on channel ch shared by cf pairs.
func (m *Machine) Contention(ch Channel, cf, n int) (extraLatency, ratio float64) {
	if cf <= 1 {
		return 0, 1
	}
	k := m.Kind(ch)
	return m.model(k).Latency * float64(cf-1), m.Ratio(k, cf, n)
}

func (c Cost) String() string {
	return fmt.Sprintf("%v o_s=%.3g o_r=%.3g L=%.3g T=%.3g rdv=%v", c.Level, c.SendOverhead, c.RecvOverhead, c.Latency, c.Transfer, c.Rendezvous)
}
