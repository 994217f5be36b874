// Package mpi is the SPMD runtime that parpredict's target programs are
// written against. It looks and behaves like MPI, in idiomatic Go:
//
//	func main() {
//		n := flag.Int("n", 1000, "problem size")
//		flag.Parse()
//		mpi.Main(func(c *mpi.Comm) {
//			lo, hi := c.Rank()*(*n)/c.Size(), (c.Rank()+1)*(*n)/c.Size()
//			...
//			mpi.Allreduce(c, local, global, mpi.Sum)
//		})
//	}
//
// # Starting ranks
//
// [Main] runs the body once per rank and exits non-zero if any rank fails.
// The rank count comes from the -np flag (registered on flag.CommandLine),
// else from the PARPREDICT_NP environment variable, else 1. [Run] does the
// same for a given count and returns the error instead of exiting.
//
// # Backends
//
// The default backend runs every rank as a goroutine of one process; it needs
// no C library. Building with -tags openmpi selects the Open MPI backend (one
// process per rank under mpirun; -tags mpich: the same over MPICH), see
// docs/openmpi.md. The same program source runs on both.
//
// # API
//
//	Comm                      a communicator handle of one rank: Rank, Size, Barrier, Split, Abort, intervals
//	Send, Recv, Sendrecv      blocking point-to-point (AnySource, AnyTag, Status)
//	Isend, Irecv, Request     non-blocking point-to-point; Request.Wait, Request.Test, Waitall
//	Bcast, Reduce, Allreduce  collectives (Sum, Prod, Min, Max)
//	Gather(v), Scatter(v), Allgather(v), Alltoall(v)
//	Scan, Exscan              prefix reductions (in rank order)
//	Trace                     the optional run trace (see docs/trace-format.md)
//
// Buffers are typed slices ([]float64, []int32, []complex128, ...) constrained
// by [Elem]; the byte size of every message is len(buf) * unsafe.Sizeof(T),
// which is what parpredict's static analysis reads.
//
// # Semantics
//
// Messages between a pair of ranks on one communicator and tag are never
// overtaken. Standard-mode sends are buffered by the goroutine backend (MPI
// allows this; under Open MPI a large Send may wait for its receive, so a
// program that relies on buffering can deadlock there). Errors are fatal, as
// with MPI_ERRORS_ARE_FATAL: a receive buffer that is too small, an invalid
// rank, a panic in any rank, or a deadlock (every live rank blocked in an MPI
// call) stops all ranks, and Run returns a typed error ([*TruncationError],
// [*RankError], [*DeadlockError], [*AbortError]) that names the ranks, the
// operations and their call sites.
//
// # Tracing
//
// With -mpitrace FILE (or PARPREDICT_TRACE=FILE) every rank records enter and
// leave times of each MPI call and interval, written as one JSON file at the
// end of the run. With tracing off, each call pays one nil check.
// $PARPREDICT_TRACE_INTERVALS keeps only the interval marks and
// $PARPREDICT_TRACE_SAMPLE a weighted sample of the calls
// (docs/trace-format.md).
package mpi
