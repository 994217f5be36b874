// Package commmodel is parpredict's communication model: what a message
// and a collective cost on a target cluster, given where the ranks sit.
//
// A [Machine] is loaded from YAML ([Load], [Parse]; format in
// docs/machine-format.md; presets in package machines): the cluster's
// shape, LogGP-style parameters per level (same socket, other socket,
// other node) that may change piecewise with the message size, the eager
// limit and rendezvous handshake, the contention model of each kind of
// shared channel (fair sharing or measured t(m,cf)/t(m,1) tables plus a
// contention latency), the collective selection rules, and the compute
// slowdown against ranks per node.
//
// A [Placement] ([Machine.Place]) puts P ranks on nodes, sockets and
// cores, in block or round-robin order: a configuration is (P, nodes, ppn).
//
// Point to point, [Machine.Message] gives a message's uncontended [Cost]
// (overheads, latency, transfer, protocol, the channels it uses), and
// [Machine.Contended] / [Machine.Contention] what it becomes when cf
// transfers share its busiest channel; a caller that tracks what is in
// flight (the interpreter, through package simnet) supplies cf.
//
// Collectives are [Schedule]s of point-to-point steps built by [Generate]
// for the real algorithms (binomial trees, scatter+allgather, recursive
// doubling, Rabenseifner, ring, Bruck, pairwise, linear, dissemination,
// and the node-aware leader all-to-all), chosen by [Machine.Select] with
// Open MPI 4.1's fixed decision tables (default) or MPICH's thresholds.
// [Verify] checks a schedule symbolically (every block reaches the right
// rank, no contribution is reduced twice); [Machine.Simulate] replays it
// with the one-port model, the protocols and contention; [Hockney.ClosedForm]
// gives Thakur, Rabenseifner and Gropp's formulas, the fast path
// ([Machine.Estimate]) and the tests' oracle. [Machine.Compare] orders
// placements, the experiment behind `predict comm`.
//
//	Machine, LevelParams, ChannelModel   the machine description
//	Placement, Config, Order             ranks on nodes, sockets, cores
//	Cost, Level, Channel                 one message's price and what it shares
//	Op, Algorithm, Schedule, Step        collectives as point-to-point steps
//	Hockney                              closed forms
//	SimResult, PlacementTime             simulated collectives and placements
//
// What the model leaves out: segmentation/pipelining of large broadcasts
// (chain, pipeline and k-nomial trees are replaced by the binomial tree),
// topology-aware network routing beyond the node adapter, and
// non-commutative reductions.
package commmodel
