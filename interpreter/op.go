package interpreter

import "fmt"

// OpKind is the kind of an MPI operation a rank asks for.
type OpKind uint8

// The operations. OpFinish ends the rank.
const (
	OpFinish OpKind = iota
	OpSend
	OpRecv
	OpSendrecv
	OpIsend
	OpIrecv
	OpWait
	OpWaitall
	OpBarrier
	OpBcast
	OpReduce
	OpAllreduce
	OpGather
	OpScatter
	OpAllgather
	OpAlltoall
	// OpMark records the rank's clock at a user interval's begin (Tag = 1)
	// or end (Tag = 0); Req is the interval id. It takes no time.
	OpMark
	// OpSplit partitions Op.Group by Op.Color and Op.Key (MPI_Comm_split):
	// a collective that costs an Allgather of the two numbers, after which
	// the rank's Result.Group is its new communicator.
	OpSplit
	// OpTest asks whether request Req has completed by the rank's clock
	// (Request.Test): if so it finishes as OpWait does; if not the rank
	// goes on at once with Result.Pending set. A Test of a request already
	// found unfinished at the same clock (the program came back round the
	// requests it polls with nothing between) waits until the first of
	// those requests completes, and then answers for its own: a polling
	// loop always advances, to the first completion it can see.
	OpTest
)

var opNames = [...]string{"Finish", "Send", "Recv", "Sendrecv", "Isend", "Irecv", "Wait", "Waitall",
	"Barrier", "Bcast", "Reduce", "Allreduce", "Gather", "Scatter", "Allgather", "Alltoall", "Mark", "Split", "Test"}

func (k OpKind) String() string {
	if int(k) < len(opNames) {
		return opNames[k]
	}
	return fmt.Sprintf("OpKind(%d)", int(k))
}

// IsCollective reports whether k is a collective operation.
func (k OpKind) IsCollective() bool { return k >= OpBarrier && k <= OpAlltoall || k == OpSplit }

// Wildcards, as in package mpi.
const (
	AnySource = -1
	AnyTag    = -1
)

// Op is one MPI operation of one rank. Ranks (Peer, RecvPeer, Root) are
// world ranks whatever the communicator.
type Op struct {
	Kind OpKind
	// Group is the communicator the operation is on: nil for the world,
	// else one that an OpSplit made.
	Group *Group
	Peer  int // destination (sends) or source (receives; may be AnySource)
	Tag   int // may be AnyTag for receives
	Bytes int // payload: the message (point-to-point), or per-rank block (collectives)
	// Elem is the size in bytes of one element of a Reduce's or
	// Allreduce's buffer (0: unknown): libraries choose their algorithm
	// by the element count too.
	Elem int
	Root int // rooted collectives

	// Sendrecv's receive half.
	RecvPeer, RecvTag, RecvBytes int

	// Req names the request an Isend/Irecv creates; Wait completes Req,
	// Waitall completes Reqs. Request names are the program's choice and
	// must be unique among the rank's pending requests.
	Req  int
	Reqs []int
	// AllPending makes a Waitall wait for every request of the rank
	// still pending instead of Reqs: the program's list is one the
	// interpreter lost track of.
	AllPending bool

	// Send is what a send (or a Bcast's root) carries, and Recv where a
	// receive (or a Bcast's other ranks) puts it: opaque to the
	// simulator, which hands Send to the receiving program's
	// DataReceiver with its Recv when the message is delivered. Nil when
	// the program moves no data.
	Send, Recv any

	// Split's arguments: ranks of Group with the same Color form a new
	// communicator, ordered by Key and then by their rank in Group; a
	// negative Color gets none.
	Color, Key int

	// Fault is the seconds of page faults the operation's receive takes
	// to write memory nothing wrote before (FirstTouch.InTransfer): the
	// transfers into the rank pay it, shared by their bytes in a
	// collective.
	Fault float64

	// Prefix makes an OpAllgather a prefix reduction (PrefixScan,
	// PrefixExscan): it costs the Allgather that package mpi does for
	// it, and a member receives its predecessors' contributions (Send
	// as for OpAllreduce) combined.
	Prefix Prefix

	Site string // the call site, for timelines and deadlock reports
	// Region is the model region that took most of the compute before
	// this operation (when the oracle names regions), for timelines.
	Region string
}

// Prefix says which members' contributions a prefix reduction combines.
type Prefix uint8

const (
	NoPrefix     Prefix = iota
	PrefixScan          // members 0..me (mpi.Scan)
	PrefixExscan        // members 0..me-1 (mpi.Exscan; member 0 receives nothing)
)

// Result tells a program how its previous operation completed.
type Result struct {
	Source, Tag, Bytes int // receives: the matched message (Source a world rank)
	// Group is the communicator an OpSplit made for the rank (nil when
	// its color was negative).
	Group *Group
	// Pending: an OpTest found its request unfinished.
	Pending bool
}

// DataReceiver is implemented by programs that move data with their
// messages: the simulator calls ReceiveData when a message sent with a
// payload (Op.Send) is delivered into a receive that named where it goes
// (Op.Recv). The SSA ranks use it so that small messages of known values
// (a task number, a termination flag, a size broadcast by rank 0) arrive
// known.
type DataReceiver interface {
	ReceiveData(into, payload any)
}
