// Package bench calibrates a machine description on the machine it runs on
// by the MPIPerf method (Kurnosov; SEEDS.md 2), over the mpi package, so it
// measures whichever backend it runs on.
//
// Every benchmark body is SPMD over *mpi.Comm: [SyncClocks] computes each
// rank's offset to rank 0 by ping-pong (linear algorithm, minimum round
// trip, stop after 100 tries without improvement); [BroadcastBound] bounds
// the time to broadcast a timestamp; [Measure] runs an operation in
// launch slots on the global clock: a warm-up round (discarded) sets the
// first slot, rank 0 broadcasts each round's start, a launch that starts
// late or ends after its slot is invalid on any rank, a launch's time is
// the latest end over ranks minus its slot start, a round with 25 % or
// more invalid launches widens the slot, and the point stops at 100
// launches, 30 valid ones, or 5 % relative error with 10 valid. [Summarise]
// trims 25 % from each end and gives the mean, standard error, and
// Student confidence intervals at 90, 95 and 99 %.
//
// [Calibrate] runs the suite: the WaitPatternUp / WaitPatternNull timer
// checks, ping-pong over a range of sizes with a [SegmentedFit] that finds
// protocol changes, contention tables t(m,cf)/t(m,1) for cf = 1..k
// concurrent pairs, collective timings (with the fitted model's
// prediction beside them), and the compute slowdown of a memory-bound
// kernel against ranks per node. It returns a commmodel.Machine and a
// [Report].
//
// All suites run in one mpi.Run, each on a communicator of the first ranks
// it needs while the others sleep until rank 0 says it is over (job.go).
// Built with -tags openmpi (or mpich) and started by mpirun, every process
// of the job calls Calibrate, the run spans the whole job, a job too small
// for contention leaves it out with a note, and only world rank 0 gets the
// results: the others get [ErrOtherRank].
//
//	Params, DefaultParams   the method's knobs (MPIPerf's defaults)
//	Clock                   a rank's view of the global clock
//	Stats, Row, Report      the MPIPerf columns per data point
//	Line, Sample            the segmented ping-pong fit
//	Options, Calibrate      the suite
//	PingPongNow             a quick ping-pong, to check an older machine file
//	ErrOtherRank            what processes other than world rank 0 get under MPI
package bench
