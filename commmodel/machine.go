package commmodel

// Machine is a loaded and validated machine description: the cluster's
// shape, the cost of a message at each level of the hierarchy, the shared
// channels and how they degrade under contention, the collective selection
// rules, and the compute slowdown against ranks per node.
type Machine struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// Provenance records how the numbers were obtained (a paper, a
	// calibration run with its date and CPU).
	Provenance map[string]string `yaml:"provenance,omitempty"`

	Nodes          int `yaml:"nodes"`
	SocketsPerNode int `yaml:"sockets_per_node"`
	CoresPerSocket int `yaml:"cores_per_socket"`

	// Levels holds the point-to-point parameters of the three levels.
	Levels Levels `yaml:"levels"`

	// EagerLimit is the largest message sent eagerly, in bytes; larger
	// messages use the rendezvous protocol.
	EagerLimit int `yaml:"eager_limit"`
	// HandshakeMessages is the number of zero-byte synchronisation messages
	// of a rendezvous transfer: 3 (RTS, CTS, FIN) unless stated.
	HandshakeMessages int `yaml:"handshake_messages"`
	// RendezvousWait, when positive, is how long (seconds) a rendezvous
	// send waits for its receive to be posted before the library buffers
	// the message and the send returns, as the mpi package's goroutine
	// backend does; 0: it waits for good, as MPI libraries do.
	RendezvousWait float64 `yaml:"rendezvous_wait,omitempty"`

	// Channels describes how each kind of shared channel degrades.
	Channels Channels `yaml:"channels"`

	// ReduceTimePerByte is gamma: the time to combine one byte in a
	// reduction.
	ReduceTimePerByte float64 `yaml:"reduce_time_per_byte"`

	// Collectives chooses the selection rules and per-operation overrides.
	Collectives CollectiveConfig `yaml:"collectives"`

	// ComputeSlowdown is the factor by which computation slows down with
	// the number of ranks sharing a node; linear interpolation between
	// rows, constant beyond the last.
	ComputeSlowdown []SlowdownRow `yaml:"compute_slowdown"`

	// Lockstep, when measured, says how many cores ranks on a node that
	// synchronise often effectively get (EffectiveCoresFor): per pattern
	// (its rows together), sorted by ranks, then compute. Empty: every
	// rank has its core.
	Lockstep []LockstepRow `yaml:"lockstep,omitempty"`

	// PageFaults, when measured, is what the first touch of freshly
	// allocated memory costs: a receive into a large buffer that nothing
	// wrote before pays a page fault per page. Absent: first touches are
	// free.
	PageFaults *PageFaults `yaml:"page_faults,omitempty"`

	// Refetch, when measured, is what a rank of an oversubscribed node
	// pays to bring its working set back into a core's caches when it
	// gets a core after another rank ran there. Absent: nothing.
	Refetch *Refetch `yaml:"refetch,omitempty"`

	// Noise, when measured, is how the machine interrupts computation
	// (detours: timer ticks, daemons, the hypervisor). Absent: compute
	// runs exactly as long as modelled.
	Noise *Noise `yaml:"noise,omitempty"`
}

// PageFaults is the cost of touching fresh memory: Time per page of
// PageSize bytes with one rank faulting, times Concurrent's factor when
// ppn ranks of a node fault at once (linear between rows, constant
// outside; empty: 1).
type PageFaults struct {
	PageSize   int           `yaml:"page_size"`
	Time       float64       `yaml:"time"`
	Concurrent []SlowdownRow `yaml:"concurrent,omitempty"`
}

// Refetch prices the working set a rank brings back into the caches when
// it resumes on a core that ranks take turns on: Bandwidth bytes per
// second, for a working set that the core's Cache bytes would have held
// for all the ranks taking turns on it. A larger one does not stay cached
// with a core to itself either, which its profiled time already says.
type Refetch struct {
	Bandwidth float64 `yaml:"bandwidth"`
	Cache     float64 `yaml:"cache"`
}

// RefetchTime is what a rank pays to bring bytes of its working set back
// when perCore ranks take turns on its core; 0 without a refetch model,
// with a core to itself, or for a working set their caches do not hold.
func (m *Machine) RefetchTime(bytes, perCore float64) float64 {
	f := m.Refetch
	if f == nil || perCore <= 1 || bytes <= 0 || bytes*perCore > f.Cache {
		return 0
	}
	return bytes / f.Bandwidth
}

// FaultTime is the time one of ppn ranks on a node takes to fault in
// pages fresh pages, 0 without a page-fault model.
func (m *Machine) FaultTime(pages float64, ppn int) float64 {
	if m.PageFaults == nil {
		return 0
	}
	return pages * m.PageFaults.Time * slowdown(m.PageFaults.Concurrent, ppn)
}

// Levels are the point-to-point parameters of the three distances between
// two ranks.
type Levels struct {
	Socket  LevelParams `yaml:"socket"`  // same socket
	Node    LevelParams `yaml:"node"`    // same node, other socket
	Network LevelParams `yaml:"network"` // other node
}

// LevelParams are LogGP-style parameters of one level. With zero overheads
// and a single piece they reduce to Hockney's alpha + m*beta.
type LevelParams struct {
	Latency      float64 `yaml:"latency"`       // seconds (L, Hockney's alpha)
	Bandwidth    float64 `yaml:"bandwidth"`     // bytes per second (1/G, 1/beta)
	SendOverhead float64 `yaml:"send_overhead"` // seconds of sender CPU (o_s)
	RecvOverhead float64 `yaml:"recv_overhead"` // seconds of receiver CPU (o_r)
	// Pieces override latency and bandwidth from a message size on, where
	// calibration found a protocol change. Sorted by From.
	Pieces []Piece `yaml:"pieces,omitempty"`
}

// Piece is the latency and bandwidth for messages of at least From bytes.
type Piece struct {
	From      int     `yaml:"from"`
	Latency   float64 `yaml:"latency"`
	Bandwidth float64 `yaml:"bandwidth"`
}

// Channels holds the contention models of the three kinds of shared
// channel.
type Channels struct {
	Adapter ChannelModel `yaml:"adapter"` // a node's network adapter
	Memory  ChannelModel `yaml:"memory"`  // a socket's memory controller
	Link    ChannelModel `yaml:"link"`    // a node's inter-socket link (QPI)
}

// ChannelModel says how transfers slow down when cf of them share a
// channel. Without a table each gets 1/cf of the bandwidth (ratio cf);
// with one, the ratio t(m,cf)/t(m,1) is interpolated from it. Latency is
// the extra start-up time a transfer pays for each other transfer sharing
// the channel (so T_c = Latency*(cf-1)).
type ChannelModel struct {
	Latency float64        `yaml:"latency"`
	Table   []DegradeTable `yaml:"table,omitempty"`
}

// DegradeTable is one row of measured ratios t(m,cf)/t(m,1) for a message
// size: Ratios[i] is the ratio for cf = i+1.
type DegradeTable struct {
	Size   int       `yaml:"size"`
	Ratios []float64 `yaml:"ratios"`
}

// SlowdownRow is the compute slowdown with PPN ranks on a node.
type SlowdownRow struct {
	PPN    int     `yaml:"ppn"`
	Factor float64 `yaml:"factor"`
}

// CollectiveConfig selects collective algorithms: Rules is "openmpi"
// (default) or "mpich"; Force maps an operation name ("Alltoall") to an
// algorithm name that overrides the rules.
type CollectiveConfig struct {
	Rules string            `yaml:"rules"`
	Force map[string]string `yaml:"force,omitempty"`
}

// CoresPerNode is the number of cores of one node.
func (m *Machine) CoresPerNode() int { return m.SocketsPerNode * m.CoresPerSocket }

// ComputeFactor returns the compute slowdown factor with ppn ranks on a node.
func (m *Machine) ComputeFactor(ppn int) float64 { return slowdown(m.ComputeSlowdown, ppn) }

// slowdown interpolates a factor table sorted by ppn: linear between rows,
// constant outside, 1 when empty.
func slowdown(rows []SlowdownRow, ppn int) float64 {
	if len(rows) == 0 || ppn <= rows[0].PPN {
		if len(rows) == 0 {
			return 1
		}
		return rows[0].Factor
	}
	for i := 1; i < len(rows); i++ {
		if ppn <= rows[i].PPN {
			a, b := rows[i-1], rows[i]
			return a.Factor + (b.Factor-a.Factor)*float64(ppn-a.PPN)/float64(b.PPN-a.PPN)
		}
	}
	return rows[len(rows)-1].Factor
}
