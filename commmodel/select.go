package commmodel

// Selection rules. RulesOpenMPI follows Open MPI 4.1's fixed decision
// functions (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, v4.1.x):
// tables over the communicator size and the message size. Open MPI's
// algorithms that we do not model are replaced by their nearest relative
// here: chain, pipeline, (split-)binary and k-nomial trees by the binomial
// tree, linear_sync by linear, two_proc by pairwise, segmented ring by
// ring, basic_linear and nonoverlapping allreduce by reduce+bcast. Open MPI
// 4.1 also tables Allgather, Gather and Scatter; for those we use the
// older fixed rules (Allgather: total < 50 KB gives recursive doubling on a
// power of two and Bruck otherwise, else ring; Gather and Scatter:
// binomial), which the same file had before 4.0.
//
// RulesMPICH follows MPICH 3.x's defaults (src/mpi/coll/bcast.c,
// allreduce.c, reduce.c, alltoall.c, allgather.c and their MPIR_CVAR_*
// declarations: BCAST_SHORT_MSG_SIZE 12288, BCAST_LONG_MSG_SIZE 524288,
// BCAST_MIN_PROCS 8, ALLREDUCE_SHORT_MSG_SIZE 2048, REDUCE_SHORT_MSG_SIZE
// 2048, ALLTOALL_SHORT_MSG_SIZE 256, ALLTOALL_MEDIUM_MSG_SIZE 32768,
// ALLGATHER_SHORT_MSG_SIZE 81920, ALLGATHER_LONG_MSG_SIZE 524288): Bcast binomial below 12288 bytes or 8 ranks,
// scatter + recursive-doubling allgather below 524288 bytes on a power of
// two, else scatter + ring; Allreduce recursive doubling up to 2048 bytes
// (or fewer elements than ranks), else Rabenseifner; Reduce binomial up to
// 2048 bytes, else Rabenseifner; Alltoall Bruck up to 256 bytes per block
// with at least 8 ranks, linear (isend/irecv) up to 32768, else pairwise;
// Allgather recursive doubling below 524288 total bytes on a power of two,
// Bruck below 81920, else ring; Barrier dissemination; Gather and Scatter
// binomial.

//
// RulesGoroutine is what the mpi package's goroutine backend does
// (mpi/gor_coll.go), so that a machine file calibrated on that backend
// prices its collectives by its own algorithms: a linear Barrier, Reduce,
// Gather and Scatter, a binomial Bcast, recursive-doubling Allreduce, ring
// Allgather and an Alltoall that posts every send at once (linear).

// The rule sets.
const (
	RulesOpenMPI   = "openmpi"
	RulesMPICH     = "mpich"
	RulesGoroutine = "goroutine"
)

// RuleSets lists the rule sets a machine file may name.
var RuleSets = []string{RulesOpenMPI, RulesMPICH, RulesGoroutine}

// cut: below Below bytes use Alg.
type cut struct {
	Below int
	Alg   Algorithm
}

// band: for fewer than Ranks ranks, the message-size cuts (the last cut's
// Below is ignored: it applies to everything larger).
type band struct {
	Ranks int
	Cuts  []cut
}

const inf = int(^uint(0) >> 1)

func c(below int, a Algorithm) cut { return cut{below, a} }

// Open MPI 4.1 tables (commutative operations), algorithms mapped as
// described above.
var ompiAllreduce = []band{
	{4, []cut{c(8, Ring), c(4096, RecursiveDoubling), c(8192, Ring), c(16384, RecursiveDoubling), c(65536, Ring), c(262144, Ring), c(inf, Rabenseifner)}},
	{8, []cut{c(16, Ring), c(8192, RecursiveDoubling), c(inf, Rabenseifner)}},
	{16, []cut{c(8192, RecursiveDoubling), c(inf, Rabenseifner)}},
	{32, []cut{c(64, Ring), c(4096, RecursiveDoubling), c(inf, Rabenseifner)}},
	{64, []cut{c(128, Ring), c(inf, Rabenseifner)}},
	{128, []cut{c(262144, RecursiveDoubling), c(inf, Rabenseifner)}},
	{256, []cut{c(131072, ReduceBcast), c(262144, RecursiveDoubling), c(inf, Rabenseifner)}},
	{512, []cut{c(4096, ReduceBcast), c(inf, Rabenseifner)}},
	{2048, []cut{c(2048, ReduceBcast), c(16384, RecursiveDoubling), c(inf, Rabenseifner)}},
	{4096, []cut{c(2048, ReduceBcast), c(4096, Ring), c(16384, RecursiveDoubling), c(inf, Rabenseifner)}},
	{inf, []cut{c(2048, ReduceBcast), c(16384, Ring), c(32768, RecursiveDoubling), c(inf, Rabenseifner)}},
}

var ompiAlltoall = []band{
	{3, []cut{c(2, Pairwise), c(4, Pairwise), c(16, Pairwise), c(64, Pairwise), c(256, Pairwise), c(4096, Pairwise), c(32768, Pairwise), c(262144, Linear), c(inf, Pairwise)}},
	{8, []cut{c(8192, Linear), c(16384, Linear), c(65536, Linear), c(524288, Linear), c(1048576, Pairwise), c(inf, Linear)}},
	{16, []cut{c(262144, Linear), c(inf, Linear)}},
	{32, []cut{c(4, Linear), c(512, Bruck), c(8192, Linear), c(inf, Linear)}},
	{64, []cut{c(512, Bruck), c(524288, Linear), c(inf, Linear)}},
	{128, []cut{c(1024, Bruck), c(262144, Linear), c(inf, Pairwise)}},
	{256, []cut{c(1024, Bruck), c(262144, Linear), c(inf, Pairwise)}},
	{512, []cut{c(1024, Bruck), c(32768, Linear), c(inf, Pairwise)}},
	{1024, []cut{c(512, Bruck), c(262144, Linear), c(inf, Pairwise)}},
	{2048, []cut{c(512, Bruck), c(inf, Linear)}},
	{4096, []cut{c(1024, Bruck), c(inf, Linear)}},
	{inf, []cut{c(2048, Bruck), c(inf, Linear)}},
}

var ompiBarrier = []band{
	{4, []cut{c(inf, RecursiveDoubling)}},
	{8, []cut{c(inf, Linear)}},
	{64, []cut{c(inf, RecursiveDoubling)}},
	{256, []cut{c(inf, Dissemination)}},
	{512, []cut{c(inf, RecursiveDoubling)}},
	{1024, []cut{c(inf, Dissemination)}},
	{4096, []cut{c(inf, RecursiveDoubling)}},
	{inf, []cut{c(inf, Dissemination)}},
}

var ompiBcast = []band{
	{4, []cut{c(32, Binomial), c(256, Binomial), c(512, Binomial), c(1024, Binomial), c(32768, Linear), c(131072, Binomial), c(262144, Binomial), c(524288, Linear), c(inf, Binomial)}},
	{8, []cut{c(2048, Binomial), c(8192, Binomial), c(1048576, Linear), c(inf, Binomial)}},
	{16, []cut{c(32768, Binomial), c(inf, Linear)}},
	{32, []cut{c(1048576, Binomial), c(inf, ScatterAllgather)}},
	{128, []cut{c(inf, Binomial)}},
	{256, []cut{c(16384, Binomial), c(32768, Linear), c(inf, Binomial)}},
	{1024, []cut{c(inf, Binomial)}},
	{2048, []cut{c(524288, Binomial), c(inf, ScatterAllgather)}},
	{4096, []cut{c(262144, Binomial), c(inf, ScatterAllgather)}},
	{inf, []cut{c(262144, Binomial), c(inf, ScatterAllgather)}},
}

var ompiReduce = []band{
	{4, []cut{c(8, Rabenseifner), c(32, Binomial), c(262144, Linear), c(inf, Binomial)}},
	{8, []cut{c(262144, Binomial), c(524288, Linear), c(1048576, Binomial), c(inf, Linear)}},
	{inf, []cut{c(inf, Binomial)}},
}

func pick(bands []band, p, n int) Algorithm {
	for _, b := range bands {
		if p < b.Ranks {
			for _, ct := range b.Cuts {
				if n < ct.Below {
					return ct.Alg
				}
			}
			return b.Cuts[len(b.Cuts)-1].Alg
		}
	}
	panic("commmodel: pick: rank bands do not end at infinity")
}

// DefaultElemSize is the element size [Machine.Select] assumes where the
// caller does not know the buffer's type: a float64 or an int64.
const DefaultElemSize = 8

// Select chooses the algorithm for op over p ranks and a message of bytes
// (as [Generate] counts them) made of elements of elem bytes (0:
// [DefaultElemSize]), by the machine's rules and overrides. The element
// count matters where a library's algorithm hands a buffer of fewer
// elements than it splits into to another algorithm (see [countFallback]).
func (m *Machine) Select(op Op, p, bytes, elem int) Algorithm {
	if a, ok := m.Collectives.Force[op.String()]; ok {
		if alg, err := ParseAlgorithm(op, a); err == nil && (alg != Leaders) {
			return countFallback(m.Collectives.Rules, op, fallback(op, alg, p), p, elements(bytes, elem))
		}
	}
	return fallback(op, SelectBy(m.Collectives.Rules, op, p, bytes, elem), p)
}

// elements is the element count of a buffer of bytes.
func elements(bytes, elem int) int {
	if elem <= 0 {
		elem = DefaultElemSize
	}
	return bytes / elem
}

// fallback replaces an algorithm that does not apply to p.
func fallback(op Op, a Algorithm, p int) Algorithm {
	if op == Allgather && a == RecursiveDoubling && !isPow2(p) {
		return Bruck
	}
	return a
}

// countFallback is what Open MPI's algorithms do themselves with fewer
// elements than the pieces they split the buffer into (coll_base_allreduce.c,
// coll_base_reduce.c): the ring Allreduce (and the segmented ring, through
// it) runs recursive doubling when count < p; the reduce-scatter based
// Allreduce and Reduce (Rabenseifner) run the basic linear ones when count
// is below the largest power of two <= p, which we model as reduce+bcast
// and as linear. An 8-byte Allreduce on 16 to 63 ranks, which Open MPI
// 4.1's table gives the segmented ring, is thus recursive doubling, not
// 2(p-1) messages of nothing. MPICH's rules test the count themselves.
func countFallback(rules string, op Op, a Algorithm, p, count int) Algorithm {
	if rules == RulesMPICH || rules == RulesGoroutine {
		return a
	}
	switch {
	case op == Allreduce && a == Ring && count < p:
		return RecursiveDoubling
	case op == Allreduce && a == Rabenseifner && count < pof2floor(p):
		return ReduceBcast
	case op == Reduce && a == Rabenseifner && count < pof2floor(p):
		return Linear
	}
	return a
}

// SelectBy applies rule set rules (one of [RuleSets]; anything else is
// taken as "openmpi") to a message of bytes in elements of elem bytes (0:
// [DefaultElemSize]).
func SelectBy(rules string, op Op, p, bytes, elem int) Algorithm {
	count := elements(bytes, elem)
	switch rules {
	case RulesMPICH:
		return selectMPICH(op, p, bytes, count)
	case RulesGoroutine:
		return selectGoroutine(op)
	}
	return countFallback(rules, op, selectOpenMPI(op, p, bytes), p, count)
}

func selectOpenMPI(op Op, p, bytes int) Algorithm {
	switch op {
	case Barrier:
		return pick(ompiBarrier, p, 0)
	case Bcast:
		return pick(ompiBcast, p, bytes)
	case Reduce:
		return pick(ompiReduce, p, bytes)
	case Allreduce:
		return pick(ompiAllreduce, p, bytes)
	case Alltoall:
		return pick(ompiAlltoall, p, bytes)
	case Allgather:
		if bytes*p < 50000 {
			if isPow2(p) {
				return RecursiveDoubling
			}
			return Bruck
		}
		return Ring
	}
	return Binomial
}

func selectMPICH(op Op, p, bytes, count int) Algorithm {
	switch op {
	case Barrier:
		return Dissemination
	case Bcast:
		switch {
		case bytes < 12288 || p < 8:
			return Binomial
		case bytes < 524288 && isPow2(p):
			return ScatterAllgather
		}
		return ScatterRing
	case Allreduce:
		if bytes <= 2048 || count < pof2floor(p) {
			return RecursiveDoubling
		}
		return Rabenseifner
	case Reduce:
		if bytes <= 2048 || count < pof2floor(p) {
			return Binomial
		}
		return Rabenseifner
	case Alltoall:
		switch {
		case bytes <= 256 && p >= 8:
			return Bruck
		case bytes <= 32768:
			return Linear
		}
		return Pairwise
	case Allgather:
		total := bytes * p
		switch {
		case total < 524288 && isPow2(p):
			return RecursiveDoubling
		case total < 81920:
			return Bruck
		}
		return Ring
	}
	return Binomial
}

func selectGoroutine(op Op) Algorithm {
	switch op {
	case Bcast:
		return Binomial
	case Allreduce:
		return RecursiveDoubling
	case Allgather:
		return Ring
	}
	return Linear // Barrier, Reduce, Gather, Scatter, Alltoall
}
