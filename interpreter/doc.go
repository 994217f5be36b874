// Package interpreter executes a program's model for P ranks in virtual
// time.
//
// The core is a deterministic discrete-event simulator ([Simulate]): each
// rank is a [Program] that computes for a while and then asks for an MPI
// operation ([Op]); the simulator advances the rank's virtual clock by the
// compute time, prices the operation with a [Network] (latency, bandwidth,
// eager or rendezvous protocol, contention on shared channels), matches
// messages with MPI semantics (per pair, communicator and tag in order;
// AnySource and AnyTag), replays collectives as the point-to-point
// schedules the network chooses, and reports a deadlock (every live rank
// blocked) with what each rank waits in. Ranks run in order of their clocks,
// ties broken by rank, so the same inputs always give the same result.
//
//	Program    one rank's behaviour: Step returns compute time and the next Op
//	Op, Result an MPI operation and what its completion tells the program
//	Network    prices messages and chooses collective schedules
//	Run        the simulation's output: per-rank totals, timelines, makespan
//
// The rank programs that execute a model's SSA with abstract values
// ([NewSSAPrograms]) are built on top of this engine:
//
//	SSAPrograms  one simulation's rank programs, sharing compiled code
//	Oracle       costs, reduced nests and branch frequencies from the model
//	fnCode       a function compiled once per simulation: operands resolved
//	             to frame slots or constants, per block its cost, phi edges
//	             and reduced nests (the oracle does not change meanwhile)
//	value        an abstract value (48 bytes: copied on every slot access)
//	object       lazy memory: only written cells are stored
//
// Speed matters: a prediction interprets every rank's main instruction by
// instruction, 1024 ranks for a P = 1024 point; see docs/interpreter.md.
package interpreter
