// Package report turns predicted and measured run times into the tables
// predict prints: speedup tables with Amdahl's and Gustafson's laws and the
// Karp-Flatt metric, validation tables (actual against predicted), and the
// loss characteristics of the DVM performance analyser computed from
// per-rank timelines. It does not run or interpret programs; the interpreter
// and the mpi package's traces feed it plain values.
//
// Main types and functions:
//
//	Config, Point, Sweep   a process configuration, its predicted time (and
//	                       serial time), a set of points with metadata
//	Speedup                Sweep -> *SpeedupReport: speedup, efficiency,
//	                       S_A(p), S_G(p), Karp-Flatt, optimum, scalability
//	                       range; WriteText, WriteCSV, WriteJSON
//	Validation             actual and predicted Sweeps -> *ValidationReport:
//	                       error per configuration, mean and max
//	Timeline, Segment      per-rank compute / MPI / wait segments and interval
//	                       marks; FromTrace converts an mpi.Trace; WriteJSON
//	                       and ReadTimeline keep one in a file
//	Losses                 Timeline -> *LossReport: execution, lost and
//	                       productive time, efficiency, communications, idle,
//	                       insufficient parallelism, load imbalance, real and
//	                       potential sync, time variation, overlap; per rank,
//	                       comparative (min/max/mean), per call site, per
//	                       interval
//	WriteChromeTrace       a Timeline as Chrome trace event JSON (Perfetto)
//	ParseFormat, Write     pick text, CSV or JSON output from a flag
//	WriteFile              atomic file output for any of the writers
//
// Every writer's output depends only on its input: floats have fixed
// formats, rows are sorted, and no date is recorded. The formats and the
// definitions of the characteristics are in docs/report.md.
package report
