package interpreter

// Network prices messages on a machine under a placement of ranks. The
// communication model implements it.
type Network interface {
	// Message returns the uncontended cost of one point-to-point message of
	// n bytes from world rank src to dst.
	Message(src, dst, n int) MessageCost
	// Contention returns the latency added to, and the factor applied to
	// the transfer time of, a message of n bytes on channel ch when cf
	// transfers (itself included) share the channel.
	Contention(ch, cf, n int) (extraLatency, ratio float64)
	// Schedule returns, for every rank of a collective over p ranks, the
	// point-to-point steps it performs, in order. Elem is the size of one
	// element of the buffer (0: unknown; see Op.Elem).
	Schedule(kind OpKind, p, bytes, elem, root int) [][]Step
}

// A Noter is a Network that says where it modelled an operation other
// than as asked; Simulate copies its notes into Run.Notes.
type Noter interface {
	Notes() []string
}

// MessageCost is the timing of one message, in seconds.
type MessageCost struct {
	SendOverhead float64 // sender CPU time (o_s)
	RecvOverhead float64 // receiver CPU time (o_r)
	Latency      float64 // wire latency of one message
	Transfer     float64 // time to push the payload through the bottleneck, uncontended
	Rendezvous   bool    // the payload leaves once the receive is posted (RTS/CTS handshake), FIN after
	// Handshake is the latency of each handshake message (RTS, CTS) of a
	// rendezvous: the wire latency on a network, 0 where the sender sees
	// the posted receive itself (the ranks of one process, whose runtime
	// copies into it once posted).
	Handshake float64
	Channels  []int // the shared channels the payload crosses (node adapters, socket memory)
}

// Step is one step of a rank's part in a collective: post every receive and
// send, wait for all, then spend Compute seconds (a reduction's arithmetic).
type Step struct {
	Sends   []Transfer
	Recvs   []Transfer
	Compute float64
}

// Transfer is one message of a collective step: its peer and size.
type Transfer struct {
	Peer, Bytes int
}
