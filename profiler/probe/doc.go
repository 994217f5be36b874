// Package probe is the runtime that programs instrumented by the profiler
// import. The profiler rewrites a copy of the program's files (through
// go build -overlay) so that they call these functions at the model's
// region boundaries; the user's files are never changed.
//
// Regions are small integers assigned at instrumentation time. Their
// counters live in flat arrays of padded slots: one updated with plain
// additions where the process runs one rank, and shards updated with
// atomics where the goroutine backend of mpi runs several ranks in one
// process, each goroutine in the shard its stack picks (slot.go).
// Which regions carry a timer is decided at run time from the environment
// ($PARPREDICT_PROBE_TIMED), so one instrumented binary serves both the
// counting run and the timed run.
//
// | function          | placed at                                    |
// |-------------------|----------------------------------------------|
// | Start, Stop       | function bodies and timed call sites         |
// | Inc               | branch arms, untimed statements              |
// | LoopStart, Loop   | before and after a loop (local counter)      |
// | Span              | before and after a loop of the timing binary  |
// | NewVec, Vec.Tick  | per-iteration times of outermost loops       |
// | Main, Exit        | replace mpi.Main and os.Exit, so the counters |
// |                   | are flushed on every way out of the program  |
// | Flush             | deferred at the top of main                  |
//
// The counters are written as JSON to $PARPREDICT_PROBE_OUT by Flush.
// Without that variable every probe is a cheap no-op.
package probe
