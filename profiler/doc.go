// Package profiler times the pieces of a program's model on one node: it
// instruments a copy of the program's own packages, runs it with the real
// mpi backend, and writes the profile that the interpreter costs the
// model with.
//
// The user's files are never written. Probes are inserted into copies of
// the files, within their lines (so positions stay valid), and the copies
// are compiled in place of the originals with go build -overlay. Probe
// targets come from the model (ModelTargets): every measurement is keyed by
// a model region or leaf ID. ASTTargets derives targets from the syntax
// alone and is the fallback when the model cannot be built.
//
// A profile takes these runs of the instrumented program:
//
//  1. a counting run: counters only, plus the calibration of the probes;
//  2. the timed runs (Options.Repeat): timers where planTimers finds a
//     region coarse enough (a timer costs about executions x 60 ns, and
//     the budget is a few percent of the run), per-iteration times for
//     outermost timed loops, and the mpi trace for the MPI calls' times;
//  3. optionally the uninstrumented program (Options.Baseline), for the
//     overhead and the check that own times add up to the real run time;
//  4. optionally one timed run per entry of Options.PPN, for the node
//     contention table.
//
// | type         | what it is                                                    |
// |--------------|---------------------------------------------------------------|
// | Target       | a region to probe: ID, kind, AST node (the seam with model)   |
// | Program      | the loaded main package and the module's packages it imports  |
// | Instrumented | the instrumented file texts and the probe regions             |
// | Options      | what Run profiles and how                                     |
// | Profile      | the profile file: Meta, Totals, Regions, MPI, Contention      |
// | Region       | one region's numbers: counts, own times, trips, balance       |
// | Imbalance    | the ParJava balance test of a loop and its iteration times    |
// | StaleError   | a profile that no longer matches the sources or arguments     |
//
// Own times: a timed region's own time is its time less that of its timed
// children (regions nested in it, and for a call site the callee's body),
// less the MPI calls directly in it, less the cost of the timers inside
// it. Untimed regions fold into their nearest timed ancestor
// (Region.FoldedInto). A function gets timers only when every call of it
// is a timed call site; otherwise its time would count twice.
//
// The probe runtime is package profiler/probe; docs/profiler.md describes
// the method and its measured overhead, docs/profile-format.md the file.
package profiler
